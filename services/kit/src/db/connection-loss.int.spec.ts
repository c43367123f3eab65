import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp } from '../http/http-app.js';
import { silentLog } from '../test/fixture.js';
import { terminateBackends } from '../testing/faults.js';
import { createTestDatabase, infraGate, postgresServerUrl, type TestDatabase } from '../testing/infra.js';
import { isConnectionLoss } from './connection-errors.js';
import { connectPostgres, type Database } from './database.js';

/** The one table this test writes. */
interface LedgerDB {
  ledger: { id: string };
}

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(run)('Postgres terminating the connections of a pool in use', () => {
  let testDb: TestDatabase;
  let database: Database<LedgerDB>;
  // An 'error' event nobody listens to is thrown from the socket's callback: it surfaces here, or the process dies.
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => void crashes.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    testDb = await createTestDatabase();
    database = connectPostgres<LedgerDB>({ connectionString: testDb.url, schema: 'support', max: 10 });
    await sql`CREATE SCHEMA support`.execute(database.db);
    await sql`CREATE TABLE ledger (id text PRIMARY KEY)`.execute(database.db);
  });
  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    await database?.close();
    await testDb?.drop();
  });

  const record = (id: string) =>
    database.db.transaction().execute(async (trx) => {
      await trx.insertInto('ledger').values({ id }).execute();
      // The transaction holds its client across an await with no query running — the state in which pg-pool has
      // taken its own error listener off the client.
      await sleep(2);
      await sql`SELECT 1`.execute(trx);
    });

  it('rejects the transactions in flight, keeps the process alive and serves new queries on fresh connections', async () => {
    const committed: string[] = [];
    const failures: unknown[] = [];
    let running = true;
    const worker = async () => {
      while (running) {
        const id = randomUUID();
        try {
          await record(id);
          committed.push(id);
        } catch (err) {
          failures.push(err);
        }
      }
    };
    const workers = Array.from({ length: 30 }, worker);
    let terminated = 0;
    for (let round = 0; round < 6; round += 1) {
      await sleep(150);
      terminated += await terminateBackends(testDb.url);
    }
    await sleep(150);
    running = false;
    await Promise.all(workers);

    expect(crashes).toEqual([]);
    expect(terminated).toBeGreaterThan(0);
    expect(failures.length).toBeGreaterThan(0); // the faults really hit transactions in flight
    expect(failures.filter((err) => !isConnectionLoss(err)).map(String)).toEqual([]);
    expect(committed.length).toBeGreaterThan(0);

    // The pool dropped the broken clients and connects anew.
    const after = Array.from({ length: 20 }, () => randomUUID());
    await Promise.all(after.map((id) => record(id)));
    const present = new Set((await database.db.selectFrom('ledger').select('id').execute()).map((r) => r.id));
    expect([...committed, ...after].filter((id) => !present.has(id))).toEqual([]);
    expect(crashes).toEqual([]);
  });

  describe('behind the HTTP error handler', () => {
    let app: FastifyInstance;
    let entered: () => void = () => {};
    let proceed: Promise<void> = Promise.resolve();

    beforeAll(async () => {
      app = createHttpApp({ name: 'faults', log: silentLog });
      app.post('/ledger', async () => {
        const id = randomUUID();
        await database.db.transaction().execute(async (trx) => {
          await trx.insertInto('ledger').values({ id }).execute();
          entered();
          await proceed;
          await sql`SELECT 1`.execute(trx);
        });
        return { id };
      });
      await app.ready();
    });
    afterAll(async () => app?.close());

    it('answers 503 UNAVAILABLE to a request whose connection was terminated, then 200 on retry', async () => {
      let release!: () => void;
      proceed = new Promise((r) => (release = r));
      const inTransaction = new Promise<void>((r) => (entered = r));
      const response = app.inject({ method: 'POST', url: '/ledger' });
      await inTransaction;
      expect(await terminateBackends(testDb.url)).toBeGreaterThan(0);
      await sleep(50); // let the client see its connection end while it waits between queries
      release();
      const res = await response;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: expect.stringMatching(/try again/), code: 'UNAVAILABLE' });
      expect(res.headers['retry-after']).toBe('1');

      entered = () => {};
      proceed = Promise.resolve();
      const retry = await app.inject({ method: 'POST', url: '/ledger' });
      expect(retry.statusCode).toBe(200);
      expect(crashes).toEqual([]);
    });
  });
});
