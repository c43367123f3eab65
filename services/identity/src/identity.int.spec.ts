import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectPostgres,
  NatsEventBus,
  rebuildProjections,
  type Database,
  type RunningService,
} from '@ques/kit';
import {
  createTestDatabase,
  eventually,
  infraGate,
  natsServerBinary,
  postgresServerUrl,
  startNatsServer,
  uniqueNamespace,
  type TestDatabase,
} from '@ques/kit/testing';
import pino from 'pino';
import type { IdentityDB } from './db/schema.js';
import { runTestIdentity } from './test/identity.js';

const log = pino({ level: 'silent' });
const run = infraGate(!!(await postgresServerUrl()) && !!natsServerBinary(), 'Postgres and a nats-server binary');

describe.runIf(run)('identity on real Postgres, with NATS JetStream stopped and restarted mid-run', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let nats: Awaited<ReturnType<typeof startNatsServer>>;
  let bus: NatsEventBus;
  let identity: RunningService<IdentityDB>;
  const namespace = uniqueNamespace('identity');

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
    nats = await startNatsServer();
    bus = await NatsEventBus.connect({ servers: nats.url, name: 'identity-test', namespace, log });
    identity = await runTestIdentity(database, bus, log);
  });
  afterAll(async () => {
    await identity?.stop();
    await bus?.close();
    await nats?.stop();
    await database?.close();
    await testDb?.drop();
  });

  const signup = (i: number) =>
    identity.app.inject({ method: 'POST', url: '/api/users', payload: { name: `Person ${i}`, email: `p${i}@example.com`, password: 'a long password' } });

  it('publishes every UserRegistered exactly once although NATS went down during signups', async () => {
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => signup(i)));
    await nats.stop();
    const during = await Promise.all(Array.from({ length: 15 }, (_, i) => signup(10 + i)));
    await nats.start();
    const after = await Promise.all(Array.from({ length: 5 }, (_, i) => signup(25 + i)));
    for (const r of [...first, ...during, ...after]) expect(r.statusCode).toBe(201);

    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`.execute(database.db);
      return rows[0]!.n === 0;
    }, 30_000);

    const seen: string[] = [];
    const counter = await NatsEventBus.connect({ servers: nats.url, name: 'identity-test-reader', namespace, log });
    await counter.subscribe({
      durable: 'test--count-registrations',
      context: 'identity',
      subjects: ['ques.identity.UserRegistered'],
      handler: async (envelope) => void seen.push((envelope.data as { userId: string }).userId),
      onPoison: async () => {},
    });
    await eventually(async () => seen.length >= 30, 15_000);
    await new Promise((r) => setTimeout(r, 500));
    await counter.close();
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    const ids = (await database.db.selectFrom('users').select('id').execute()).map((r) => r.id);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it('rebuilds the users read model from the event store into the same rows', async () => {
    await identity.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: 'p1@example.com', password: 'a long password' },
    });
    const before = await database.db.selectFrom('users').selectAll().orderBy('id').execute();
    await database.db.updateTable('users').set({ name: 'corrupted' }).execute();
    const applied = await rebuildProjections(identity.ctx.store, log);
    expect(applied).toBeGreaterThanOrEqual(30);
    const after = await database.db.selectFrom('users').selectAll().orderBy('id').execute();
    expect(after).toEqual(before);
  });
});
