import { sql, type Kysely, type Updateable } from 'kysely';
import type { LedgerEntry } from '@ques/contracts';
import { badRequest, batchedApply, insertRowsAsJson, type Projection, type RecordedEvent } from '@ques/kit';
import type { PaymentsDB, TipRow, TipsTable } from '../../db/schema.js';
import type { TipEvent, TipStage } from '../domain/tip.js';

export type { TipRow };

/** `CheckoutExpired` moves nothing here: it comes with the `TipRefunded` that releases the tip (or with no tip). */
const STATUS_AFTER: Record<Exclude<TipEvent['type'], 'CheckoutStarted' | 'CheckoutExpired'>, TipStage> = {
  TipAuthorized: 'authorized',
  TipCaptureRequested: 'capturing',
  TipCaptured: 'captured',
  TipReleaseRequested: 'releasing',
  TipRefunded: 'released',
};

const TIP_EVENT_TYPES = new Set<string>(['CheckoutStarted', ...Object.keys(STATUS_AFTER)]);

function atOf(e: Exclude<TipEvent, { type: 'CheckoutExpired' }>): string {
  switch (e.type) {
    case 'CheckoutStarted':
      return e.data.startedAt;
    case 'TipAuthorized':
      return e.data.authorizedAt;
    case 'TipCaptureRequested':
    case 'TipReleaseRequested':
      return e.data.requestedAt;
    case 'TipCaptured':
      return e.data.capturedAt;
    case 'TipRefunded':
      return e.data.refundedAt;
    default: {
      const unknown: never = e;
      return unknown;
    }
  }
}

type Started = Extract<TipEvent, { type: 'CheckoutStarted' }>['data'];

function startedRow(d: Started, version: number) {
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

type Captured = Extract<TipEvent, { type: 'TipCaptured' }>['data'];

function ledgerRow(d: Captured) {
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

/** Inline projection `tips`: where each tip stands (insert once, then only events newer than the row). */
export const tipsProjection: Projection<PaymentsDB> = {
  name: 'tips',
  tables: ['tips'],
  /** Rebuilds: runs of new checkouts go in as one statement (ADR 0026); the moves of a tip as `apply` does them. */
  applyBatch: batchedApply<PaymentsDB>({
    relevant: (event) => TIP_EVENT_TYPES.has(event.type),
    rowOf: (event) =>
      event.type === 'CheckoutStarted'
        ? { key: (event.data as Started).questionId, row: startedRow(event.data as Started, event.streamVersion) }
        : null,
    insert: (trx, rows) => insertRowsAsJson(trx, 'tips', rows, sql`ON CONFLICT (question_id) DO NOTHING`),
    apply: (trx, event) => tipsProjection.apply(trx, event),
  }),
  async apply(trx: Kysely<PaymentsDB>, recorded: RecordedEvent) {
    if (!TIP_EVENT_TYPES.has(recorded.type)) return;
    const e = { type: recorded.type, data: recorded.data } as Exclude<TipEvent, { type: 'CheckoutExpired' }>;
    const version = recorded.streamVersion;
    const at = atOf(e);
    if (e.type === 'CheckoutStarted') {
      await trx.insertInto('tips').values(startedRow(e.data, version)).onConflict((oc) => oc.column('question_id').doNothing()).execute();
      return;
    }
    const set: Updateable<TipsTable> = { status: STATUS_AFTER[e.type], updated_at: at, version };
    if (e.type === 'TipAuthorized') set.payment_intent_id = e.data.paymentIntentId;
    if (e.type === 'TipReleaseRequested' || e.type === 'TipRefunded') set.release_reason = e.data.reason;
    await trx
      .updateTable('tips')
      .set(set)
      .where('question_id', '=', e.data.questionId)
      .where('version', '<', version)
      .execute();
  },
};

/** Inline projection `ledger`: amount, platform fee and owner net of every captured tip (one row each, idempotent). */
export const ledgerProjection: Projection<PaymentsDB> = {
  name: 'ledger',
  tables: ['ledger'],
  /** Rebuilds: every capture of the batch in one statement. */
  applyBatch: batchedApply<PaymentsDB>({
    relevant: (event) => event.type === 'TipCaptured',
    rowOf: (event) => ({ key: (event.data as Captured).questionId, row: ledgerRow(event.data as Captured) }),
    insert: (trx, rows) => insertRowsAsJson(trx, 'ledger', rows, sql`ON CONFLICT (question_id) DO NOTHING`),
    apply: (trx, event) => ledgerProjection.apply(trx, event),
  }),
  async apply(trx: Kysely<PaymentsDB>, recorded: RecordedEvent) {
    if (recorded.type !== 'TipCaptured') return;
    await trx
      .insertInto('ledger')
      .values(ledgerRow(recorded.data as Captured))
      .onConflict((oc) => oc.column('question_id').doNothing())
      .execute();
  },
};

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
    return executor
      .selectFrom('tips')
      .selectAll()
      .where('question_id', '=', questionId)
      .executeTakeFirst();
  }

  async byPaymentRef(paymentRef: string, executor: Kysely<PaymentsDB> = this.db): Promise<TipRow | undefined> {
    return executor
      .selectFrom('tips')
      .selectAll()
      .where('payment_ref', '=', paymentRef)
      .executeTakeFirst();
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
