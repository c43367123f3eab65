import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyError } from '../errors.js';
import { EventStore, outboxChannel } from '../events/event-store.js';
import { counterIntegration, counterMigrations, counterProjection, metadata, silentLog, totalOf, type CounterDB } from '../test/fixture.js';
import { connectEmbedded, openEmbeddedPostgres } from './database.js';
import { migrate } from './migrate.js';
import type { EmbeddedPostgres } from './pglite-dialect.js';
import { InProcessEventBus } from '../bus/in-process-bus.js';
import { OutboxRelay } from '../events/outbox-relay.js';
import { scheduleJob, Scheduler } from '../scheduler/scheduler.js';
import { eventually } from '../testing/infra.js';

describe('embedded Postgres (one PGlite, a schema per service)', () => {
  let pg: EmbeddedPostgres;
  beforeAll(async () => {
    pg = await openEmbeddedPostgres();
  });
  afterAll(async () => pg?.pglite.close());

  it('keeps each service in its own schema with the same unqualified SQL', async () => {
    const a = connectEmbedded<CounterDB>(pg, 'identity');
    const b = connectEmbedded<CounterDB>(pg, 'questions');
    await migrate(a, counterMigrations);
    await migrate(b, counterMigrations);
    const storeA = new EventStore({ database: a, context: 'identity', projections: [counterProjection], toIntegration: counterIntegration });
    const storeB = new EventStore({ database: b, context: 'questions', projections: [counterProjection], toIntegration: counterIntegration });
    await Promise.all([
      storeA.append({ streamId: 'counter-x', expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 2 } }], metadata }),
      storeB.append({ streamId: 'counter-x', expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 5 } }], metadata }),
    ]);
    expect(await totalOf(a.db, 'x')).toBe(2);
    expect(await totalOf(b.db, 'x')).toBe(5);
  });

  it('opens an in-memory database from an empty cluster image made once, not by initdb each time (ADR 0045)', async () => {
    const images = () => readdirSync(tmpdir()).filter((name) => /^ques-pglite-empty-[0-9a-f]{16}\.tar$/.test(name));
    expect(images().length).toBeGreaterThan(0);
    const before = new Map(images().map((name) => [name, statSync(join(tmpdir(), name)).mtimeMs]));
    const second = await openEmbeddedPostgres();
    try {
      const { rows } = await second.pglite.query<{ n: number }>(
        "select count(*)::int as n from pg_namespace where nspname not like 'pg_%' and nspname not in ('public', 'information_schema')",
      );
      expect(rows[0]!.n).toBe(0); // an empty cluster: no schema of any service
    } finally {
      await second.pglite.close();
    }
    expect(new Map(images().map((name) => [name, statSync(join(tmpdir(), name)).mtimeMs]))).toEqual(before);
  });

  it('has pg_trgm for a migration to create, as real Postgres does (issue 14, typo-tolerant search)', async () => {
    const database = connectEmbedded(pg, 'questions');
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(database.db);
    const { rows } = await sql<{ close: boolean; score: number }>`SELECT 'Favourite loom?' % 'favorite lom' AS close, similarity('Favourite loom?', 'favorite lom') AS score`.execute(database.db);
    expect(rows[0]!.close).toBe(true);
    expect(rows[0]!.score).toBeGreaterThan(0.5);
  });

  it('serialises transactions and still detects concurrent appends', async () => {
    const database = connectEmbedded<CounterDB>(pg, 'identity');
    const store = new EventStore({ database, context: 'identity', projections: [counterProjection], toIntegration: counterIntegration });
    const streamId = `counter-${randomUUID()}`;
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, async () => {
        const { state, version } = await store.load(streamId, counterDecider);
        return store.append({ streamId, expectedVersion: version, events: counterDecider.decide({ by: 1 }, state), metadata });
      }),
    );
    // Each reads, then appends in a transaction of its own; the serialized session lets several win in turn, but never
    // two at one version.
    const versions = (await store.readStream(streamId)).map((e) => e.streamVersion);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
    const rejected = results.filter((r) => r.status === 'rejected');
    for (const r of rejected) expect((r).reason).toBeInstanceOf(ConcurrencyError);
    expect(versions.length + rejected.length).toBe(5);
  });

  it('delivers NOTIFY from a committed append to listeners', async () => {
    const database = connectEmbedded<CounterDB>(pg, 'identity');
    const store = new EventStore({ database, context: 'identity', projections: [], toIntegration: counterIntegration });
    let notified = 0;
    const stop = await database.listen(outboxChannel('identity'), () => (notified += 1));
    await store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    await new Promise((r) => setTimeout(r, 50));
    expect(notified).toBeGreaterThanOrEqual(1);
    await stop();
  });

  it('relays the outbox through the in-process bus and wakes the scheduler on a commit (60 s poll)', async () => {
    const database = connectEmbedded<CounterDB>(pg, 'support');
    await migrate(database, counterMigrations);
    const store = new EventStore({ database, context: 'support', projections: [], toIntegration: counterIntegration });
    const bus = new InProcessEventBus({ log: silentLog });
    const relay = new OutboxRelay({ database, bus, log: silentLog });
    for (let i = 0; i < 3; i += 1) {
      await store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    }
    expect(await relay.drain()).toBe(3);
    expect(await relay.drain()).toBe(0);

    const ran: string[] = [];
    const scheduler = new Scheduler({ database, log: silentLog, pollIntervalMs: 60_000, handlers: { settle: async (_trx, job) => void ran.push(job.key) } });
    await scheduler.start();
    try {
      await database.db.transaction().execute((trx) => scheduleJob(trx, { kind: 'settle', key: 'embedded-now', dueAt: new Date(), payload: {} }));
      await eventually(async () => ran.includes('embedded-now'));
    } finally {
      await scheduler.stop();
    }
  });
});

describe('embedded Postgres on a data folder (npm start, ADR 0035)', () => {
  it('creates a new folder\'s cluster, runs with 32 MB of shared buffers and fsync on, and keeps its rows across a restart', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ques-pglite-')), 'pg');
    try {
      const first = await openEmbeddedPostgres(dataDir);
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      const settings = await first.pglite.query<{ shared_buffers: string; fsync: string; db: string }>(
        "SELECT current_setting('shared_buffers') AS shared_buffers, current_setting('fsync') AS fsync, current_database() AS db",
      );
      expect(settings.rows[0]).toEqual({ shared_buffers: '32MB', fsync: 'on', db: 'template1' });
      await first.pglite.exec("CREATE SCHEMA kept; CREATE TABLE kept.rows (id int PRIMARY KEY, note text); INSERT INTO kept.rows VALUES (1, 'still here');");
      await first.pglite.close();

      const second = await openEmbeddedPostgres(dataDir);
      const { rows } = await second.pglite.query<{ note: string }>('SELECT note FROM kept.rows WHERE id = 1');
      expect(rows).toEqual([{ note: 'still here' }]);
      await second.pglite.close();
    } finally {
      rmSync(dirname(dataDir), { recursive: true, force: true });
    }
    // initdb (in its child process) and two starts: seconds on a quiet machine, more on a shared one.
  }, 180_000);
});

const counterDecider = {
  initialState: () => 0,
  evolve: (state: number, event: { type: string; data: unknown }) => state + (event.data as { by: number }).by,
  decide: (command: { by: number }, _state: number) => [{ type: 'Incremented', data: { by: command.by } }],
};
