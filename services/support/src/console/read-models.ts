import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  userSnapshotHandlers,
  type EventEnvelope,
  type OpsAbuseReport,
  type OpsSupportRequest,
  type ZUserSnapshot,
} from '@ques/contracts';
import { erasedValue, handlerProjection, upsertLocalCopy, type ConsumerDefinition } from '@ques/kit';
import type { SupportDB } from '../db/schema.js';
import type { SupportRequestEvent } from '../requests/domain/support-request.js';
import type { AbuseReportEvent } from '../reports/domain.js';

/** `support_requests`: what the console lists (projection of the request streams; rebuildable). */
export const supportRequestsProjection = handlerProjection<SupportDB, SupportRequestEvent>({
  name: 'support-requests',
  tables: ['support_requests'],
  handlers: {
    SupportRequested: (trx, d) =>
      trx
        .insertInto('support_requests')
        .values({
          request_id: d.requestId,
          category: d.category,
          title: d.title,
          description: d.description,
          user_id: d.userId,
          username: d.username,
          status: 'open',
          requested_at: d.requestedAt,
        })
        .onConflict((oc) => oc.column('request_id').doNothing())
        .execute(),
    SupportRequestAnswered: (trx, d) =>
      trx
        .updateTable('support_requests')
        .set({
          status: 'answered',
          answered_at: d.answeredAt,
          answer_note: d.note,
          answered_by: d.operator,
          answer_mailed_at: null,
        })
        .where('request_id', '=', d.requestId)
        .execute(),
    SupportAnswerMailed: (trx, d) =>
      trx
        .updateTable('support_requests')
        .set({ answer_mailed_at: d.mailedAt })
        .where('request_id', '=', d.requestId)
        .execute(),
  },
});

/** `abuse_reports`: what the console lists (projection of the report streams; rebuildable). */
export const abuseReportsProjection = handlerProjection<SupportDB, AbuseReportEvent>({
  name: 'abuse-reports',
  tables: ['abuse_reports'],
  handlers: {
    AbuseReported: (trx, d) =>
      trx
        .insertInto('abuse_reports')
        .values({
          report_id: d.reportId,
          target_kind: d.target.kind,
          target_id: d.target.kind === 'answer' ? d.target.questionId : d.target.username,
          target_username: d.target.username ?? null,
          reason: d.reason,
          note: d.note,
          user_id: d.userId,
          username: d.username,
          status: 'open',
          reported_at: d.reportedAt,
        })
        .onConflict((oc) => oc.column('report_id').doNothing())
        .execute(),
    AbuseReportResolved: (trx, d) =>
      trx
        .updateTable('abuse_reports')
        .set({
          status: d.resolution,
          resolved_at: d.resolvedAt,
          resolution_note: d.note,
          resolved_by: d.operator,
        })
        .where('report_id', '=', d.reportId)
        .execute(),
  },
});

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export async function listRequests(
  db: Kysely<SupportDB>,
  filter: { status?: string; category?: string },
  id?: string,
): Promise<OpsSupportRequest[]> {
  let q = db
    .selectFrom('support_requests as r')
    .leftJoin('support_contacts as c', 'c.user_id', 'r.user_id')
    .selectAll('r')
    .select(['c.email_verified', 'c.deleted'])
    .orderBy('r.requested_at', 'desc')
    .limit(200);
  if (id) q = q.where('r.request_id', '=', id);
  if (filter.status === 'open' || filter.status === 'answered') q = q.where('r.status', '=', filter.status);
  if (filter.category) q = q.where('r.category', '=', filter.category);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.request_id,
    category: r.category as OpsSupportRequest['category'],
    title: r.title,
    description: r.description,
    requester: r.user_id ? { userId: r.user_id, username: r.username ?? '' } : null,
    status: r.status,
    requestedAt: new Date(r.requested_at).toISOString(),
    answeredAt: iso(r.answered_at),
    answerNote: r.answer_note,
    answeredBy: r.answered_by,
    canMailRequester: !!r.user_id && r.email_verified === true && r.deleted === false,
    answerMailedAt: iso(r.answer_mailed_at),
  }));
}

export async function listReports(
  db: Kysely<SupportDB>,
  filter: { status?: string },
  id?: string,
): Promise<OpsAbuseReport[]> {
  let q = db.selectFrom('abuse_reports').selectAll().orderBy('reported_at', 'desc').limit(200);
  if (id) q = q.where('report_id', '=', id);
  if (filter.status === 'open' || filter.status === 'hidden' || filter.status === 'dismissed')
    q = q.where('status', '=', filter.status);
  const rows = await q.execute();
  return rows.map((r) => ({
    id: r.report_id,
    target:
      r.target_kind === 'answer'
        ? {
            kind: 'answer' as const,
            questionId: r.target_id,
            ...(r.target_username ? { username: r.target_username } : {}),
          }
        : { kind: 'profile' as const, username: r.target_id },
    reason: r.reason as OpsAbuseReport['reason'],
    note: r.note,
    reporter: r.user_id ? { userId: r.user_id, username: r.username ?? '' } : null,
    status: r.status,
    reportedAt: new Date(r.reported_at).toISOString(),
    resolvedAt: iso(r.resolved_at),
    resolutionNote: r.resolution_note,
    resolvedBy: r.resolved_by,
  }));
}

async function applySnapshot(
  trx: Kysely<SupportDB>,
  envelope: EventEnvelope<z.output<typeof ZUserSnapshot>>,
): Promise<void> {
  const d = envelope.data;
  await upsertLocalCopy(trx, 'support_contacts', 'user_id', {
    user_id: d.userId,
    email: d.email.toLowerCase(),
    email_verified: d.emailVerified,
    deleted: false,
    version: envelope.streamVersion,
    updated_at: envelope.occurredAt,
  });
}

/** `support--contacts`: identity's user snapshots → where an answer to a signed-in requester is mailed. */
export function contactsConsumer(): ConsumerDefinition<SupportDB> {
  return {
    durable: 'support--contacts',
    context: 'identity',
    handlers: userSnapshotHandlers(applySnapshot),
  };
}

/** A deleted person: no address kept, their words in the console's tables erased (the events are shredded). */
export async function eraseFromConsole(trx: Kysely<SupportDB>, userId: string): Promise<void> {
  const erased = erasedValue(userId);
  await trx
    .insertInto('support_contacts')
    .values({
      user_id: userId,
      email: '',
      email_verified: false,
      deleted: true,
      version: 2 ** 31 - 1,
      updated_at: new Date(),
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ email: '', email_verified: false, deleted: true }))
    .execute();
  await trx
    .updateTable('support_requests')
    .set({ title: erased, description: erased, username: erased, answer_note: null })
    .where('user_id', '=', userId)
    .execute();
  await trx
    .updateTable('abuse_reports')
    .set({ note: null, username: erased })
    .where('user_id', '=', userId)
    .execute();
}
