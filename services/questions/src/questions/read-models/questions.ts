import { sql, type Insertable, type Kysely, type SelectQueryBuilder, type Updateable } from 'kysely';
import { QUESTION_MESSAGES } from '@ques/contracts';
import {
  badRequest,
  insertRowsAsJson,
  QueryTemplate,
  type BulkWriter,
  type Placeholders,
  type Projection,
  type RecordedEvent,
} from '@ques/kit';
import {
  PUBLIC_QUESTION_COLUMNS,
  QUESTION_COLUMNS,
  type PublicQuestionRow,
  type QuestionRow,
  type QuestionsDB,
  type QuestionsTable,
} from '../../db/schema.js';
import type { QuestionEvent } from '../domain/question.js';

export type { QuestionRow };

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
        const row = askedRow({ type: recorded.type, data: recorded.data } as AskedEvent, recorded.streamVersion);
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
          ...(d.redaction ? { public_question: d.redaction.question, public_detail: d.redaction.detail } : {}),
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
          ...(e.data.redaction ? { public_question: e.data.redaction.question, public_detail: e.data.redaction.detail } : {}),
        },
      };
    case 'QuestionVisibilityChanged':
      return { id: e.data.questionId, at: e.data.changedAt, set: { display_on_profile: e.data.displayOnProfile } };
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
      return { id: e.data.questionId, at: e.data.expiredAt, set: { answer_window_expired: true, tip_status: 'released' } };
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

// ---- queries ----

/** Keyset position of a row in newest-first order; the cursor is this, base64url-encoded. */
interface Position {
  createdAt: string;
  id: string;
}

export function encodeCursor(row: Pick<QuestionRow, 'created_at' | 'id'>): string {
  return Buffer.from(JSON.stringify([new Date(row.created_at).toISOString(), row.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Position | null {
  if (!cursor) return null;
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof createdAt === 'string' &&
      !Number.isNaN(Date.parse(createdAt)) &&
      typeof id === 'string' &&
      /^[0-9a-f-]{36}$/i.test(id)
    ) {
      return { createdAt, id };
    }
  } catch {
    // fall through
  }
  throw badRequest(QUESTION_MESSAGES.invalidCursor);
}

export interface Page<R = QuestionRow> {
  rows: R[];
  nextCursor: string | null;
}

type Query<O = QuestionRow> = SelectQueryBuilder<QuestionsDB, 'questions', O>;

/** The keyset a page starts after, as the query compares it. */
interface After {
  createdAt: Date;
  id: string;
}

const afterOf = (position: Position | null): After | null =>
  position ? { createdAt: new Date(position.createdAt), id: position.id } : null;

/** One page of a list query: `take` rows (the page and one to peek) strictly after `after`, newest first. */
function paged<O>(query: Query<O>, take: number, after: After | null): Query<O> {
  let q = query;
  if (after) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(take);
}

function toPage<R extends Pick<QuestionRow, 'created_at' | 'id'>>(rows: R[], limit: number): Page<R> {
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  return { rows: pageRows, nextCursor: more ? encodeCursor(pageRows[pageRows.length - 1]!) : null };
}

/**
 * A list query compiled once per shape (first page; a page after a cursor) and run with the request's values
 * (ADR 0043): building and compiling it with kysely on every request cost more CPU than the round trip.
 */
class ListTemplates<K extends Record<string, unknown>, O extends Pick<QuestionRow, 'created_at' | 'id'>> {
  private readonly first: QueryTemplate<K & { take: number }, O>;
  private readonly next: QueryTemplate<K & { take: number; afterAt: Date; afterId: string }, O>;

  constructor(
    private readonly db: Kysely<QuestionsDB>,
    names: readonly (keyof K & string)[],
    build: (key: Placeholders<K>, take: number, after: After | null) => Query<O>,
  ) {
    this.first = QueryTemplate.compile<K & { take: number }, O>([...names, 'take'], (p) => build(p, p.take, null));
    this.next = QueryTemplate.compile<K & { take: number; afterAt: Date; afterId: string }, O>(
      [...names, 'take', 'afterAt', 'afterId'],
      (p) => build(p, p.take, { createdAt: p.afterAt, id: p.afterId }),
    );
  }

  /** Up to `limit + 1` rows after the cursor's position. */
  rows(key: K, limit: number, after: Position | null): Promise<O[]> {
    const take = limit + 1;
    return after
      ? this.next.execute(this.db, { ...key, take, afterAt: new Date(after.createdAt), afterId: after.id })
      : this.first.execute(this.db, { ...key, take });
  }

  async page(key: K, limit: number, cursor: string | undefined): Promise<Page<O>> {
    return toPage(await this.rows(key, limit, decodeCursor(cursor)), limit);
  }
}

/** Newest first, then by id: the order every list and cursor shares. */
const newestFirst = (a: QuestionRow, b: QuestionRow) => {
  const t = new Date(b.created_at).getTime() - new Date(a.created_at).getTime();
  return t !== 0 ? t : b.id < a.id ? -1 : b.id > a.id ? 1 : 0;
};

export class QuestionsReadModel {
  private readonly lists: {
    public: ListTemplates<{ username: string }, PublicQuestionRow>;
    inbox: ListTemplates<{ userId: string }, QuestionRow>;
    curated: ListTemplates<{ userId: string }, QuestionRow>;
    askedByUser: ListTemplates<{ userId: string }, QuestionRow>;
    askedAsGuest: ListTemplates<{ email: string }, QuestionRow>;
  };

  constructor(private readonly db: Kysely<QuestionsDB>) {
    this.lists = {
      public: new ListTemplates(db, ['username'], (k, take, after) => this.publicListOf(k.username, take, after)),
      inbox: new ListTemplates(db, ['userId'], (k, take, after) => this.inboxOf(k.userId, take, after)),
      curated: new ListTemplates(db, ['userId'], (k, take, after) => this.curatedOf(k.userId, take, after)),
      askedByUser: new ListTemplates(db, ['userId'], (k, take, after) => this.askedByUserOf(k.userId, take, after)),
      askedAsGuest: new ListTemplates(db, ['email'], (k, take, after) => this.askedAsGuestOf(k.email, take, after)),
    };
  }

  private base(): Query {
    return this.db.selectFrom('questions').select(QUESTION_COLUMNS);
  }

  /**
   * "Already answered?" (issue 14): up to `limit` public answers of `username` matching the words being typed — each
   * word as a prefix (the last one is often half typed), any of them, ranked by `ts_rank`. When full-text search finds
   * nothing (a typo in every word), the titles whose trigrams are close to what was typed (`pg_trgm`'s `%`, ranked by
   * `similarity()`). Public rows only.
   */
  async similarAnswers(username: string, words: string[], limit = 3): Promise<QuestionRow[]> {
    if (words.length === 0) return [];
    const ranked = await this.similarSearchQuery(username, words, limit).execute();
    if (ranked.length > 0) return ranked;
    return this.similarTitlesQuery(username, words.join(' '), limit).execute();
  }

  /**
   * Full-text search of the owner's public answers, each word as a prefix, any of them, ranked by `ts_rank` among the
   * newest SIMILAR_CANDIDATES matches (a word every answer has costs the same as a rare one). The matches are read
   * from `questions_public_search` alone (owner, newest first, with the document and the answer date): only the
   * `limit` rows shown are read from the table.
   */
  similarSearchQuery(username: string, words: string[], limit: number) {
    const tsq = sql`to_tsquery('english', ${words.map((w) => `${w}:*`).join(' | ')})`;
    const matches = this.publicAnswersOf(username, this.db.selectFrom('questions'))
      .select(['id', 'answered_at', sql<number>`ts_rank(search_doc, ${tsq})`.as('rank')])
      .where(sql<boolean>`search_doc @@ ${tsq}`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(SIMILAR_CANDIDATES);
    const best = this.db
      .selectFrom(matches.as('m'))
      .select(['m.id', 'm.rank', 'm.answered_at'])
      .orderBy('m.rank', 'desc')
      .orderBy('m.answered_at', 'desc')
      .limit(limit);
    return this.db
      .selectFrom('questions')
      .innerJoin(best.as('b'), 'b.id', 'questions.id')
      .select(QUESTION_COLUMNS.map((c) => `questions.${c}` as const))
      .orderBy('b.rank', 'desc')
      .orderBy('b.answered_at', 'desc');
  }

  /**
   * Typos in every word: the owner's public titles whose trigrams are close to `typed`, closest first (the GiST index
   * `questions_public_title_trigrams`, keyed by owner and title trigrams, finds them without visiting the owner's
   * other answers).
   */
  similarTitlesQuery(username: string, typed: string, limit: number) {
    const title = sql`coalesce(public_question, question)`;
    return this.publicAnswersOf(username, this.base())
      .where(sql<boolean>`${title} OPERATOR(public.%) ${typed}`)
      .orderBy(sql`public.similarity(${title}, ${typed})`, 'desc')
      .orderBy('answered_at', 'desc')
      .limit(limit);
  }

  /** An owner's answers anyone may see (the public list's conditions), as rows or on another selection of them. */
  private publicAnswersOf<O>(
    username: string,
    from: SelectQueryBuilder<QuestionsDB, 'questions', O>,
  ): SelectQueryBuilder<QuestionsDB, 'questions', O> {
    return from
      .where('to_username', '=', username)
      .where('lifecycle', '=', 'answered')
      .where('display_on_profile', '=', true)
      .where('deleted_by_receiver', '=', false)
      .where('asker_private', '=', false);
  }

  byId(id: string, executor: Kysely<QuestionsDB> = this.db): Promise<QuestionRow | undefined> {
    return executor.selectFrom('questions').select(QUESTION_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  /** The public page's query (also what the EXPLAIN test checks): only the public view's columns. */
  publicListQuery(username: string, limit: number, after: Position | null): Query<PublicQuestionRow> {
    return this.publicListOf(username, limit + 1, afterOf(after));
  }

  private publicListOf(username: string, take: number, after: After | null): Query<PublicQuestionRow> {
    return paged(
      this.db
        .selectFrom('questions')
        .select(PUBLIC_QUESTION_COLUMNS)
        .where('to_username', '=', username)
        .where('lifecycle', '=', 'answered')
        .where('display_on_profile', '=', true)
        .where('deleted_by_receiver', '=', false)
        // The asker's consent (issue 14): a private question is never on the public page.
        .where('asker_private', '=', false),
      take,
      after,
    );
  }

  inboxQuery(userId: string, limit: number, after: Position | null): Query {
    return this.inboxOf(userId, limit + 1, afterOf(after));
  }

  private inboxOf(userId: string, take: number, after: After | null): Query {
    return paged(
      this.base()
        .where('to_user_id', '=', userId)
        .where('is_curated', '=', false)
        .where('deleted_by_receiver', '=', false)
        // Withdrawn ones stay, marked so (issue 14): the owner sees the asker took it back.
        .where('lifecycle', 'in', ['pending', 'answered', 'withdrawn']),
      take,
      after,
    );
  }

  private curatedOf(userId: string, take: number, after: After | null): Query {
    return paged(
      this.base()
        .where('to_user_id', '=', userId)
        .where('is_curated', '=', true)
        .where('deleted_by_receiver', '=', false),
      take,
      after,
    );
  }

  private askedByUserOf(userId: string, take: number, after: After | null): Query {
    return paged(
      this.base().where('asker_user_id', '=', userId).where('lifecycle', 'in', ['pending', 'answered']),
      take,
      after,
    );
  }

  private askedAsGuestOf(email: string, take: number, after: After | null): Query {
    // The address is lower-cased by the caller of the template (a placeholder is a value, not a string yet).
    return paged(
      this.base()
        .where('asked_email', '=', email)
        .where('asker_user_id', 'is', null)
        .where('lifecycle', 'in', ['pending', 'answered']),
      take,
      after,
    );
  }

  publicList(username: string, limit: number, cursor?: string): Promise<Page<PublicQuestionRow>> {
    return this.lists.public.page({ username }, limit, cursor);
  }

  inbox(userId: string, limit: number, cursor?: string): Promise<Page> {
    return this.lists.inbox.page({ userId }, limit, cursor);
  }

  curated(userId: string, limit: number, cursor?: string): Promise<Page> {
    return this.lists.curated.page({ userId }, limit, cursor);
  }

  /** Spec §5: asked by the account, or as a guest with the account's e-mail — passed only once it is verified. */
  async asked(userId: string, verifiedEmail: string | null, limit: number, cursor?: string): Promise<Page> {
    const after = decodeCursor(cursor);
    const lists = [this.lists.askedByUser.rows({ userId }, limit, after)];
    if (verifiedEmail) lists.push(this.lists.askedAsGuest.rows({ email: verifiedEmail.toLowerCase() }, limit, after));
    return toPage(merge(await Promise.all(lists)), limit);
  }

  /** Everything of the caller's (received, asked, curated), newest first, one page. */
  async mine(userId: string, verifiedEmail: string | null, limit: number, cursor?: string): Promise<Page> {
    const after = decodeCursor(cursor);
    const lists = [
      this.lists.inbox.rows({ userId }, limit, after),
      this.lists.curated.rows({ userId }, limit, after),
      this.lists.askedByUser.rows({ userId }, limit, after),
    ];
    if (verifiedEmail) lists.push(this.lists.askedAsGuest.rows({ email: verifiedEmail.toLowerCase() }, limit, after));
    return toPage(merge(await Promise.all(lists)), limit);
  }
}

/** Merges newest-first lists into one, without duplicates (a question asked of oneself is in two lists). */
function merge(lists: QuestionRow[][]): QuestionRow[] {
  const seen = new Set<string>();
  const all: QuestionRow[] = [];
  for (const row of lists.flat()) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    all.push(row);
  }
  return all.sort(newestFirst);
}

/** How many of an owner's newest matching answers "already answered?" ranks. */
const SIMILAR_CANDIDATES = 200;
