import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { QUESTION_MESSAGES } from '@ques/contracts';
import { badRequest, QueryTemplate, type Placeholders } from '@ques/kit';
import {
  PUBLIC_QUESTION_COLUMNS,
  QUESTION_COLUMNS,
  type PublicQuestionRow,
  type QuestionRow,
  type QuestionsDB,
} from '../../db/schema.js';

export type { QuestionRow };
// The projection that keeps the rows is in ./questions-projection.ts; these are the reads over them.
export { questionsProjection } from './questions-projection.js';

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
  if (after)
    q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
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
    this.first = QueryTemplate.compile<K & { take: number }, O>([...names, 'take'], (p) =>
      build(p, p.take, null),
    );
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
      public: new ListTemplates(db, ['username'], (k, take, after) =>
        this.publicListOf(k.username, take, after),
      ),
      inbox: new ListTemplates(db, ['userId'], (k, take, after) => this.inboxOf(k.userId, take, after)),
      curated: new ListTemplates(db, ['userId'], (k, take, after) => this.curatedOf(k.userId, take, after)),
      askedByUser: new ListTemplates(db, ['userId'], (k, take, after) =>
        this.askedByUserOf(k.userId, take, after),
      ),
      askedAsGuest: new ListTemplates(db, ['email'], (k, take, after) =>
        this.askedAsGuestOf(k.email, take, after),
      ),
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
    if (verifiedEmail)
      lists.push(this.lists.askedAsGuest.rows({ email: verifiedEmail.toLowerCase() }, limit, after));
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
    if (verifiedEmail)
      lists.push(this.lists.askedAsGuest.rows({ email: verifiedEmail.toLowerCase() }, limit, after));
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
