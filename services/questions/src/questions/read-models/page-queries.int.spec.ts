import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, migrate, type Database } from '@ques/kit';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '@ques/kit/testing';
import { questionsMigrations } from '../../db/migrations/index.js';
import { PUBLIC_QUESTION_COLUMNS, QUESTION_COLUMNS, type QuestionsDB } from '../../db/schema.js';
import { QuestionsReadModel, type Page } from './questions.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

const OWNER = '00000000-0000-4000-8000-000000000001';
const ASKER = '00000000-0000-4000-8000-000000000002';

/**
 * The list queries run as compiled templates (ADR 0043). Each list, paged through to its end with the cursors it
 * hands out, returns exactly the rows its conditions written out in plain SQL select, in the same order, with the
 * same values — for the first page and for every page after a cursor.
 */
describe.runIf(run)('list queries as templates (ADR 0043)', () => {
  let testDb: TestDatabase;
  let database: Database<QuestionsDB>;
  let read: QuestionsReadModel;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<QuestionsDB>({ connectionString: testDb.url, schema: 'questions', max: 3 });
    await migrate(database, questionsMigrations);
    // 300 rows over two owners, every mix of the flags the lists filter on, several rows per created_at (the id
    // breaks the tie, so a page boundary falls inside equal timestamps).
    await sql`INSERT INTO questions (id, lifecycle, is_curated, question, detail, answer, tags, to_user_id, to_username,
        recipient_name, to_user_email, from_username, asked_name, asked_email, asker_user_id, asker_private,
        public_question, public_detail, created_at, updated_at, answered_at, version, display_on_profile, deleted_by_receiver)
      SELECT gen_random_uuid(),
        (ARRAY['pending', 'answered', 'withdrawn', 'answered'])[1 + i % 4],
        i % 9 = 0, 'question ' || i, 'detail ' || i, 'answer ' || i, jsonb_build_array('t' || (i % 3)),
        CASE WHEN i % 5 = 0 THEN '00000000-0000-4000-8000-000000000003'::uuid ELSE ${OWNER}::uuid END,
        CASE WHEN i % 5 = 0 THEN 'other' ELSE 'owner' END, 'Owner', 'owner@example.com', 'guest', 'G',
        CASE WHEN i % 2 = 0 THEN 'guest@example.com' ELSE 'someone@example.com' END,
        CASE WHEN i % 3 = 0 THEN ${ASKER}::uuid ELSE NULL END,
        i % 13 = 0, CASE WHEN i % 4 = 1 THEN 'public ' || i END, CASE WHEN i % 8 = 1 THEN 'public detail ' || i END,
        timestamptz '2026-01-01' + ((i / 3) || ' minutes')::interval, now(), now(), 1, i % 7 <> 0, i % 11 = 0
      FROM generate_series(1, 300) AS i`.execute(database.db);
    read = new QuestionsReadModel(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  /** Every page of a list, following its cursors, until it has none. */
  const all = async <R extends { id: string }>(page: (cursor?: string) => Promise<Page<R>>) => {
    const rows: R[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const next = await page(cursor);
      rows.push(...next.rows);
      cursor = next.nextCursor ?? undefined;
      pages += 1;
    } while (cursor);
    return { rows, pages };
  };
  /** The rows a condition selects, newest first, with `columns`. */
  const expected = async (where: string, columns: readonly string[] = QUESTION_COLUMNS) =>
    (
      await sql<
        Record<string, unknown>
      >`SELECT * FROM questions WHERE ${sql.raw(where)} ORDER BY created_at DESC, id DESC`.execute(
        database.db,
      )
    ).rows.map((row) => Object.fromEntries(columns.map((c) => [c, row[c]])) as { id: string });

  it('the public list: its rows, its order and only the public columns', async () => {
    const { rows, pages } = await all((cursor) => read.publicList('owner', 7, cursor));
    const want = await expected(
      `to_username = 'owner' AND lifecycle = 'answered' AND display_on_profile AND NOT deleted_by_receiver AND NOT asker_private`,
      PUBLIC_QUESTION_COLUMNS,
    );
    expect(want.length).toBeGreaterThan(40);
    expect(pages).toBe(Math.ceil(want.length / 7));
    expect(rows).toEqual(want);
    // Nothing else left the database: no e-mail, no asker, no tip.
    expect(Object.keys(rows[0]!).sort()).toEqual([...PUBLIC_QUESTION_COLUMNS].sort());
  });

  it('the inbox and the curated list: their rows in order, whole', async () => {
    const inbox = await all((cursor) => read.inbox(OWNER, 6, cursor));
    expect(inbox.rows).toEqual(
      await expected(
        `to_user_id = '${OWNER}' AND NOT is_curated AND NOT deleted_by_receiver AND lifecycle IN ('pending', 'answered', 'withdrawn')`,
      ),
    );
    const curated = await all((cursor) => read.curated(OWNER, 4, cursor));
    const want = await expected(`to_user_id = '${OWNER}' AND is_curated AND NOT deleted_by_receiver`);
    expect(want.length).toBeGreaterThan(4);
    expect(curated.rows).toEqual(want);
  });

  it('asked (by the account and as a guest with its verified e-mail, any case) and everything of the caller', async () => {
    const asked = await all((cursor) => read.asked(ASKER, 'Guest@Example.com', 9, cursor));
    expect(asked.rows.map((r) => r.id)).toEqual(
      (
        await expected(
          `lifecycle IN ('pending', 'answered') AND (asker_user_id = '${ASKER}' OR (asker_user_id IS NULL AND asked_email = 'guest@example.com'))`,
        )
      ).map((r) => r.id),
    );
    const mine = await all((cursor) => read.mine(OWNER, null, 10, cursor));
    expect(mine.rows.map((r) => r.id)).toEqual(
      (
        await expected(
          `(to_user_id = '${OWNER}' AND NOT deleted_by_receiver AND (is_curated OR lifecycle IN ('pending', 'answered', 'withdrawn')))`,
        )
      ).map((r) => r.id),
    );
  });
});
