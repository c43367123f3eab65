import type { Kysely, Selectable } from 'kysely';
import { exportsInternalCalls, type ExportQuestion, type QuestionsExport } from '@ques/contracts';
import { routeFor, type HttpApp } from '@ques/kit';
import type { QuestionsDB, QuestionsTable } from '../db/schema.js';

/*
 * Questions' part of a person's data export (issue 15, docs/adr/0030), read by identity over
 * `GET /internal/exports/questions/:userId`: the questions they received (and did not delete), curated and asked, as
 * they see them. Another person's e-mail is never in it; a deleted account's questions are already gone from this
 * table (recipients.ts `eraseDeletedUser`), and its name reads "Deleted user" on what it asked.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const INVISIBLE = ['awaiting_payment', 'checkout_expired'] as const;

/** The lifecycle as a person reads it (a pending question whose 5-day window closed is "expired"). */
function statusOf(row: Selectable<QuestionsTable>): string {
  if (row.lifecycle === 'pending' && row.answer_window_expired) return 'expired';
  return row.lifecycle;
}

export function toExportQuestion(row: Selectable<QuestionsTable>, role: ExportQuestion['role']): ExportQuestion {
  return {
    id: row.id,
    role,
    question: row.question,
    detail: row.detail,
    answer: row.answer,
    tags: row.tags,
    status: statusOf(row),
    shownOnProfile: row.display_on_profile,
    private: row.asker_private,
    askedBy: row.asked_name,
    askedTo: row.to_username,
    source: row.source,
    tipCents: row.tip_amount,
    currency: row.currency,
    tipStatus: row.tip_status,
    createdAt: iso(row.created_at)!,
    answeredAt: iso(row.answered_at),
    answerDeadline: iso(row.answer_deadline),
  };
}

export async function questionsOf(db: Kysely<QuestionsDB>, userId: string): Promise<QuestionsExport> {
  const received = await db
    .selectFrom('questions')
    .selectAll()
    .where('to_user_id', '=', userId)
    .where('deleted_by_receiver', '=', false)
    .where('lifecycle', 'not in', INVISIBLE)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const asked = await db
    .selectFrom('questions')
    .selectAll()
    .where('asker_user_id', '=', userId)
    .where('lifecycle', 'not in', INVISIBLE)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return {
    questions: [
      ...received.map((row) => toExportQuestion(row, row.is_curated ? 'curated' : 'received')),
      // A question one curates on one's own profile is already listed once.
      ...asked.filter((row) => row.to_user_id !== userId).map((row) => toExportQuestion(row, 'asked')),
    ],
  };
}

export function registerExportRoutes(app: HttpApp, db: Kysely<QuestionsDB>): void {
  routeFor(app, exportsInternalCalls.questions, async (request) => {
    const { userId } = request.params;
    if (!/^[0-9a-f-]{36}$/i.test(userId)) return { questions: [] };
    return questionsOf(db, userId.toLowerCase());
  });
}
