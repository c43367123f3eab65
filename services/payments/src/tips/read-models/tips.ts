import { sql, type Kysely, type Updateable } from 'kysely';
import type { LedgerEntry } from '@ques/contracts';
import { badRequest, handlerProjection, insertRowsAsJson, type RecordedEvent } from '@ques/kit';
import type { PaymentsDB, TipRow, TipsTable } from '../../db/schema.js';
import type { TipEvent, TipStage } from '../domain/tip.js';

export type { TipRow };

type Data<T extends TipEvent['type']> = Extract<TipEvent, { type: T }>['data'];

function startedRow(d: Data<'CheckoutStarted'>, version: number) {
  return {
    question_id: d.questionId,
    recipient_user_id: d.recipientUserId,
    asker_user_id: d.askerUserId,
    account_id: d.accountId,
    payment_ref: d.paymentRef,
    payment_intent_id: null,
    amount: d.amount,
    application_fee: d.applicationFee,
    currency: d.currency,
    status: 'started' as const,
    release_reason: null,
    expires_at: d.expiresAt,
    created_at: d.startedAt,
    updated_at: d.startedAt,
    version,
  };
}

function ledgerRow(d: Data<'TipCaptured'>) {
  return {
    question_id: d.questionId,
    recipient_user_id: d.recipientUserId,
    payment_ref: d.paymentRef,
    payment_intent_id: d.paymentIntentId,
    amount: d.amount,
    application_fee: d.applicationFee,
    net: d.net,
    currency: d.currency,
    captured_at: d.capturedAt,
  };
}

/** The tip `questionId` moves to `status` at `at` (and `set`), only by an event newer than its row. */
const moved = (
  trx: Kysely<PaymentsDB>,
  event: RecordedEvent,
  [questionId, status, at]: [string, TipStage, string],
  set: Updateable<TipsTable> = {},
) =>
  trx
    .updateTable('tips')
    .set({ ...set, status, updated_at: at, version: event.streamVersion })
    .where('question_id', '=', questionId)
    .where('version', '<', event.streamVersion)
    .execute();

/**
 * Inline projection `tips`: where each tip stands (insert once, then only events newer than the row). `CheckoutExpired`
 * moves nothing here: it comes with the `TipRefunded` that releases the tip (or with no tip).
 */
export const tipsProjection = handlerProjection<PaymentsDB, TipEvent>({
  name: 'tips',
  tables: ['tips'],
  handlers: {
    CheckoutStarted: (trx, d, event) =>
      trx
        .insertInto('tips')
        .values(startedRow(d, event.streamVersion))
        .onConflict((oc) => oc.column('question_id').doNothing())
        .execute(),
    TipAuthorized: (trx, d, e) =>
      moved(trx, e, [d.questionId, 'authorized', d.authorizedAt], { payment_intent_id: d.paymentIntentId }),
    TipCaptureRequested: (trx, d, e) => moved(trx, e, [d.questionId, 'capturing', d.requestedAt]),
    TipCaptured: (trx, d, e) => moved(trx, e, [d.questionId, 'captured', d.capturedAt]),
    TipReleaseRequested: (trx, d, e) =>
      moved(trx, e, [d.questionId, 'releasing', d.requestedAt], { release_reason: d.reason }),
    TipRefunded: (trx, d, e) =>
      moved(trx, e, [d.questionId, 'released', d.refundedAt], { release_reason: d.reason }),
  },
  /** Rebuilds: runs of new checkouts go in as one statement (ADR 0026); the moves of a tip as `apply` does them. */
  batch: {
    type: 'CheckoutStarted',
    key: (d) => d.questionId,
    row: (d, event) => startedRow(d, event.streamVersion),
    insert: (trx, rows) => insertRowsAsJson(trx, 'tips', rows, sql`ON CONFLICT (question_id) DO NOTHING`),
  },
});

/** Inline projection `ledger`: amount, platform fee and owner net of every captured tip (one row each, idempotent). */
export const ledgerProjection = handlerProjection<PaymentsDB, TipEvent>({
  name: 'ledger',
  tables: ['ledger'],
  handlers: {
    TipCaptured: (trx, d) =>
      trx
        .insertInto('ledger')
        .values(ledgerRow(d))
        .onConflict((oc) => oc.column('question_id').doNothing())
        .execute(),
  },
  /** Rebuilds: every capture of the batch in one statement. */
  batch: {
    type: 'TipCaptured',
    key: (d) => d.questionId,
    row: (d) => ledgerRow(d),
    insert: (trx, rows) => insertRowsAsJson(trx, 'ledger', rows, sql`ON CONFLICT (question_id) DO NOTHING`),
  },
});

export interface LedgerPage {
  entries: LedgerEntry[];
  nextCursor: string | null;
}

const encodeCursor = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
function decodeCursor(cursor: string): { at: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const date = new Date(at ?? '');
  if (!id || Number.isNaN(date.getTime())) throw badRequest('Invalid cursor');
  return { at: date, id };
}

export class TipsReadModel {
  constructor(private readonly db: Kysely<PaymentsDB>) {}

  async byQuestion(questionId: string, executor: Kysely<PaymentsDB> = this.db): Promise<TipRow | undefined> {
    return executor.selectFrom('tips').selectAll().where('question_id', '=', questionId).executeTakeFirst();
  }

  async byPaymentRef(
    paymentRef: string,
    executor: Kysely<PaymentsDB> = this.db,
  ): Promise<TipRow | undefined> {
    return executor.selectFrom('tips').selectAll().where('payment_ref', '=', paymentRef).executeTakeFirst();
  }

  async byPaymentIntent(
    paymentIntentId: string,
    executor: Kysely<PaymentsDB> = this.db,
  ): Promise<TipRow | undefined> {
    return executor
      .selectFrom('tips')
      .selectAll()
      .where('payment_intent_id', '=', paymentIntentId)
      .executeTakeFirst();
  }

  /** Tips still held (or being paid) for an owner: what their account deletion releases. */
  async openForRecipient(userId: string, executor: Kysely<PaymentsDB> = this.db): Promise<string[]> {
    const rows = await executor
      .selectFrom('tips')
      .select('question_id')
      .where('recipient_user_id', '=', userId)
      .where('status', 'in', ['started', 'authorized'])
      .orderBy('question_id')
      .execute();
    return rows.map((r) => r.question_id);
  }

  async ledgerPage(userId: string, limit: number, cursor?: string): Promise<LedgerPage> {
    let query = this.db
      .selectFrom('ledger')
      .selectAll()
      .where('recipient_user_id', '=', userId)
      .orderBy('captured_at', 'desc')
      .orderBy('question_id', 'desc')
      .limit(limit + 1);
    if (cursor) {
      const { at, id } = decodeCursor(cursor);
      query = query.where(sql<boolean>`(captured_at, question_id) < (${at}, ${id}::uuid)`);
    }
    const rows = await query.execute();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      entries: page.map((r) => ({
        questionId: r.question_id,
        amount: Number(r.amount),
        applicationFee: Number(r.application_fee),
        net: Number(r.net),
        currency: r.currency,
        capturedAt: new Date(r.captured_at).toISOString(),
      })),
      nextCursor:
        rows.length > limit && last ? encodeCursor(new Date(last.captured_at), last.question_id) : null,
    };
  }

  async ledgerTotals(
    userId: string,
  ): Promise<{ count: number; amount: number; applicationFee: number; net: number }> {
    const row = await this.db
      .selectFrom('ledger')
      .select((eb) => [
        eb.fn.countAll<number>().as('count'),
        eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('amount'),
        eb.fn.coalesce(eb.fn.sum<number>('application_fee'), sql<number>`0`).as('application_fee'),
        eb.fn.coalesce(eb.fn.sum<number>('net'), sql<number>`0`).as('net'),
      ])
      .where('recipient_user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      count: Number(row.count),
      amount: Number(row.amount),
      applicationFee: Number(row.application_fee),
      net: Number(row.net),
    };
  }
}
