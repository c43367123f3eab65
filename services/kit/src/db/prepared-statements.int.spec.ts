import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '../testing/infra.js';
import { connectPostgres, type Database } from './database.js';

interface NotesDB {
  notes: { id: number; body: string };
}

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

describe.runIf(run)('statements sent repeatedly are prepared once per connection (ADR 0051)', () => {
  let testDb: TestDatabase;
  let database: Database<NotesDB>;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    // One connection, so every query below runs on the session whose prepared statements are read.
    database = connectPostgres<NotesDB>({ connectionString: testDb.url, schema: 'notes_app', max: 1 });
    await sql`CREATE SCHEMA notes_app`.execute(database.db);
    await sql`CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)`.execute(database.db);
    await database.db.insertInto('notes').values({ id: 1, body: 'first' }).execute();
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  const prepared = async () =>
    (
      await sql<{ statement: string; calls: string }>`SELECT statement, generic_plans + custom_plans AS calls FROM pg_prepared_statements`.execute(
        database.db,
      )
    ).rows;
  const readNote = (id: number) => database.db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirst();

  it('prepares a statement from its third execution on, and runs it with new values each time', async () => {
    expect(await readNote(1)).toEqual({ id: 1, body: 'first' });
    expect(await readNote(2)).toBeUndefined();
    expect((await prepared()).filter((p) => p.statement.includes('from "notes"'))).toEqual([]);
    for (let i = 0; i < 5; i++) expect(await readNote(1)).toEqual({ id: 1, body: 'first' });
    expect(await readNote(2)).toBeUndefined();
    const reads = (await prepared()).filter((p) => p.statement.includes('from "notes"'));
    expect(reads).toHaveLength(1);
    expect(Number(reads[0]!.calls)).toBe(6); // parsed once, bound and executed six times
  });

  it('leaves statements without parameters unprepared (BEGIN, COMMIT, DDL)', async () => {
    for (let i = 0; i < 5; i++) await sql`SELECT count(*) FROM notes`.execute(database.db);
    expect((await prepared()).filter((p) => p.statement.includes('count(*)'))).toEqual([]);
  });

  it('reads the new shape when a migration changes the columns a prepared SELECT * returns', async () => {
    const all = () => database.db.selectFrom('notes').selectAll().where('id', '>', 0).execute();
    for (let i = 0; i < 4; i++) expect(await all()).toEqual([{ id: 1, body: 'first' }]);
    await sql`ALTER TABLE notes ADD COLUMN pinned boolean NOT NULL DEFAULT false`.execute(database.db);
    // Outside a transaction the refused statement is prepared again and retried: the caller sees the new column.
    expect(await all()).toEqual([{ id: 1, body: 'first', pinned: false }]);
    expect(await all()).toEqual([{ id: 1, body: 'first', pinned: false }]);
  });

  it('inside a transaction, fails that transaction once after such a migration, and the next one reads the new shape', async () => {
    const inTransaction = () =>
      database.db.transaction().execute((trx) => trx.selectFrom('notes').selectAll().where('id', '<', 100).execute());
    for (let i = 0; i < 4; i++) await inTransaction();
    await sql`ALTER TABLE notes ADD COLUMN tag text NOT NULL DEFAULT ''`.execute(database.db);
    await expect(inTransaction()).rejects.toThrow(/cached plan must not change result type/);
    expect(await inTransaction()).toEqual([{ id: 1, body: 'first', pinned: false, tag: '' }]);
  });
});

describe.runIf(run)('prepareStatements: false', () => {
  it('sends every statement unnamed', async () => {
    const testDb = await createTestDatabase();
    const database = connectPostgres({ connectionString: testDb.url, schema: 'public', max: 1, prepareStatements: false });
    try {
      for (let i = 0; i < 5; i++) await sql`SELECT ${i}::int AS n`.execute(database.db);
      expect((await sql`SELECT statement FROM pg_prepared_statements`.execute(database.db)).rows).toEqual([]);
    } finally {
      await database.close();
      await testDb.drop();
    }
  });
});
