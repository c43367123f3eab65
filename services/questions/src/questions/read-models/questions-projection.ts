import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { insertRowsAsJson, type BulkWriter, type Projection, type RecordedEvent } from '@ques/kit';
import type { QuestionsDB, QuestionsTable } from '../../db/schema.js';
import type { QuestionEvent } from '../domain/question.js';

/** The questions read model's projection: each question's row, kept by its events; the queries are in ./questions.ts. */

const json = (value: unknown) => JSON.stringify(value);

/** Rows per multi-row insert during a rebuild (one JSON parameter each). */
const MAX_ROWS_PER_INSERT = 5_000;

type AskedEvent = Extract<QuestionEvent, { type: 'QuestionAsked' | 'TippedQuestionSubmitted' }>;

/** The row a new (or newly authorized) question starts as. */
function askedRow(e: AskedEvent, version: number): Insertable<QuestionsTable> & { id: string } {
  const d = e.data;
  const at = e.type === 'QuestionAsked' ? e.data.askedAt : e.data.submittedAt;
  return {
    id: d.questionId,
    lifecycle: e.type === 'QuestionAsked' ? 'pending' : 'awaiting_payment',
    is_curated: false,
    question: d.question,
    detail: d.detail,
    to_user_id: d.recipient.userId,
    to_username: d.recipient.username,
    recipient_name: d.recipient.name,
    to_user_email: d.recipient.email,
    asker_user_id: d.asker.userId,
    from_username: d.asker.username,
    asked_name: d.asker.name,
    asked_email: d.asker.email,
    tip_amount: d.tip?.amount ?? 0,
    currency: d.tip?.currency ?? null,
    payment_ref: d.tip?.paymentRef ?? null,
    tip_status: e.type === 'TippedQuestionSubmitted' ? 'awaiting_authorization' : d.tip ? 'held' : 'none',
    answer_deadline: e.type === 'QuestionAsked' ? e.data.answerDeadline : null,
    asker_private: d.askerPrivate ?? false,
    // A tipped question is listed from when it was asked (authorized), not when checkout began.
    created_at: at,
    updated_at: at,
    version,
  };
}

/** Inserts new questions; an authorization (QuestionAsked after TippedQuestionSubmitted) moves the row on. */
async function insertAsked(trx: Kysely<QuestionsDB>, rows: ReturnType<typeof askedRow>[]): Promise<void> {
  // One statement, one parameter, however many rows (a rebuild's batches).
  await insertRowsAsJson(
    trx,
    'questions',
    rows,
    sql`ON CONFLICT (id) DO UPDATE SET lifecycle = excluded.lifecycle, tip_status = excluded.tip_status,
      answer_deadline = excluded.answer_deadline, created_at = excluded.created_at, updated_at = excluded.updated_at,
      version = excluded.version
      WHERE questions.version < excluded.version`,
  );
}

/**
 * Inline projection `questions`: one row per question, idempotent (inserts ignore duplicates, updates only apply an
 * event newer than the row's version), so retries and rebuilds converge on the same rows.
 */
export const questionsProjection: Projection<QuestionsDB> = {
  name: 'questions',
  tables: ['questions'],
  // A question's row is made and changed only by its own stream's events (`question-<id>`, ADR 0041).
  streamLocal: true,
  /**
   * Rebuilds: consecutive new questions go in as one multi-row insert; everything else as `apply` does it. With the
   * rebuild's COPY writer (ADR 0039), a question asked by its stream's first event is folded in memory — its later
   * events of the batch change the row before it is written, once, by COPY — instead of an insert and an UPDATE per
   * event.
   */
  async applyBatch(trx: Kysely<QuestionsDB>, events: RecordedEvent[], bulk?: BulkWriter) {
    let pending = new Map<string, Record<string, unknown> & { version: number }>();
    /** Keys of pending rows made by their stream's first event (no row yet): written by COPY, changed in memory. */
    let fresh = new Set<string>();
    let folded = false;
    const flush = async () => {
      if (pending.size > 0) {
        const created: Record<string, unknown>[] = [];
        const others: ReturnType<typeof askedRow>[] = [];
        for (const [id, row] of pending) {
          if (fresh.has(id)) created.push(folded ? { ...UNCHANGED_DEFAULTS, ...row } : row);
          else others.push(row as ReturnType<typeof askedRow>);
        }
        if (created.length > 0) await bulk!.insertNew('questions', created);
        if (others.length > 0) await insertAsked(trx, others);
      }
      pending = new Map();
      fresh = new Set();
      folded = false;
    };
    for (const recorded of events) {
      if (recorded.type === 'QuestionAsked' || recorded.type === 'TippedQuestionSubmitted') {
        const row = askedRow(
          { type: recorded.type, data: recorded.data } as AskedEvent,
          recorded.streamVersion,
        );
        // One statement cannot touch a row twice: an authorization of a question in this run waits for a flush.
        if (pending.has(row.id)) await flush();
        pending.set(row.id, row);
        if (bulk && recorded.streamVersion === 1) fresh.add(row.id);
        if (pending.size >= MAX_ROWS_PER_INSERT) await flush();
        continue;
      }
      const e = { type: recorded.type, data: recorded.data } as QuestionEvent;
      const change = changeOf(e);
      const row = change && fresh.has(change.id) ? pending.get(change.id) : undefined;
      if (change && row) {
        // `apply`'s UPDATE … WHERE version < $version, on the row in memory.
        if (row.version < recorded.streamVersion) {
          Object.assign(row, change.set, { updated_at: change.at, version: recorded.streamVersion });
          folded = true;
        }
        continue;
      }
      if (e.type === 'TippedCheckoutExpired') {
        const expired = fresh.has(e.data.questionId) ? pending.get(e.data.questionId) : undefined;
        if (expired) {
          if (expired.lifecycle === 'awaiting_payment' && expired.version < recorded.streamVersion) {
            pending.delete(e.data.questionId);
            fresh.delete(e.data.questionId);
          }
          continue;
        }
      }
      await flush();
      await questionsProjection.apply(trx, recorded);
    }
    await flush();
  },
  async apply(trx: Kysely<QuestionsDB>, recorded: RecordedEvent) {
    const e = { type: recorded.type, data: recorded.data } as QuestionEvent;
    const version = recorded.streamVersion;
    switch (e.type) {
      case 'TippedQuestionSubmitted':
      case 'QuestionAsked':
        await insertAsked(trx, [askedRow(e, version)]);
        return;
      case 'QuestionCurated': {
        const d = e.data;
        await trx
          .insertInto('questions')
          .values({
            id: d.questionId,
            lifecycle: 'answered',
            is_curated: true,
            question: d.question,
            detail: d.detail,
            answer: d.answer,
            source: d.source,
            tags: json(d.tags),
            display_on_profile: d.displayOnProfile,
            to_user_id: d.recipient.userId,
            to_username: d.recipient.username,
            recipient_name: d.recipient.name,
            to_user_email: d.recipient.email,
            asker_user_id: null,
            from_username: d.recipient.username,
            asked_name: d.recipient.name,
            asked_email: null,
            replier_name: d.replierName,
            created_at: d.curatedAt,
            updated_at: d.curatedAt,
            answered_at: d.curatedAt,
            version,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'TippedCheckoutExpired':
        // Never seen by anyone: the row goes (the stream keeps the history).
        await trx
          .deleteFrom('questions')
          .where('id', '=', e.data.questionId)
          .where('lifecycle', '=', 'awaiting_payment')
          .where('version', '<', version)
          .execute();
        return;
      case 'AnswerPosted':
      case 'AnswerEdited':
      case 'QuestionVisibilityChanged':
      case 'AnswerHiddenByOperator':
      case 'QuestionDeletedByReceiver':
      case 'QuestionWithdrawn':
      case 'AnswerWindowExpired':
      case 'TipCaptureConfirmed':
      case 'TipReleaseConfirmed': {
        const change = changeOf(e)!;
        const { tags, ...set } = change.set;
        await trx
          .updateTable('questions')
          .set({ ...set, ...(tags !== undefined && { tags: json(tags) }), updated_at: change.at, version })
          .where('id', '=', change.id)
          .where('version', '<', version)
          .execute();
        return;
      }
      default: {
        const unknown: never = e;
        return unknown;
      }
    }
  },
};

/** What an event changes in its question's row (with `updated_at` = `at` and its version), or null for the others. */
type Change = { id: string; at: string; set: Omit<Updateable<QuestionsTable>, 'tags'> & { tags?: string[] } };

function changeOf(e: QuestionEvent): Change | null {
  switch (e.type) {
    case 'AnswerPosted': {
      const d = e.data;
      return {
        id: d.questionId,
        at: d.answeredAt,
        set: {
          lifecycle: 'answered',
          answer: d.answer,
          tags: d.tags,
          display_on_profile: d.displayOnProfile,
          replier_name: d.replierName,
          answered_at: d.answeredAt,
          ...(d.tipToCapture ? { tip_status: 'capturing' } : {}),
          ...(d.redaction
            ? { public_question: d.redaction.question, public_detail: d.redaction.detail }
            : {}),
        },
      };
    }
    case 'AnswerEdited':
      return {
        id: e.data.questionId,
        at: e.data.editedAt,
        set: {
          answer: e.data.answer,
          tags: e.data.tags,
          ...(e.data.source !== undefined ? { source: e.data.source } : {}),
          ...(e.data.redaction
            ? { public_question: e.data.redaction.question, public_detail: e.data.redaction.detail }
            : {}),
        },
      };
    case 'QuestionVisibilityChanged':
      return {
        id: e.data.questionId,
        at: e.data.changedAt,
        set: { display_on_profile: e.data.displayOnProfile },
      };
    case 'AnswerHiddenByOperator':
      return {
        id: e.data.questionId,
        at: e.data.hiddenAt,
        set: { display_on_profile: false, hidden_reason: e.data.reason, hidden_at: e.data.hiddenAt },
      };
    case 'QuestionDeletedByReceiver':
      return {
        id: e.data.questionId,
        at: e.data.deletedAt,
        set: { deleted_by_receiver: true, ...(e.data.tipToRelease ? { tip_status: 'released' } : {}) },
      };
    case 'QuestionWithdrawn':
      return {
        id: e.data.questionId,
        at: e.data.withdrawnAt,
        set: { lifecycle: 'withdrawn', ...(e.data.tipToRelease ? { tip_status: 'released' } : {}) },
      };
    case 'AnswerWindowExpired':
      return {
        id: e.data.questionId,
        at: e.data.expiredAt,
        set: { answer_window_expired: true, tip_status: 'released' },
      };
    case 'TipCaptureConfirmed':
      return { id: e.data.questionId, at: e.data.capturedAt, set: { tip_status: 'captured' } };
    case 'TipReleaseConfirmed':
      return { id: e.data.questionId, at: e.data.releasedAt, set: { tip_status: 'released' } };
    case 'QuestionAsked':
    case 'TippedQuestionSubmitted':
    case 'QuestionCurated':
    case 'TippedCheckoutExpired':
      return null;
    default: {
      const unknown: never = e;
      return unknown;
    }
  }
}

/**
 * The columns a change may write that a new question's row leaves to the table's defaults (migrations 0001–0008):
 * a row folded in memory carries them all, so every row of one COPY has the same columns.
 */
const UNCHANGED_DEFAULTS = {
  answer: null,
  source: '',
  tags: [] as string[],
  display_on_profile: true,
  deleted_by_receiver: false,
  replier_name: null,
  answer_window_expired: false,
  answered_at: null,
  public_question: null,
  public_detail: null,
  hidden_reason: null,
  hidden_at: null,
};
