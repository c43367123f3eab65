import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EventEnvelope } from '@ques/contracts';
import { InProcessEventBus } from '../bus/in-process-bus.js';
import { connectPostgres, type Database } from '../db/database.js';
import { notFound } from '../errors.js';
import { recordDeadLetter, type ConsumerDefinition } from '../events/consumer.js';
import Fastify from 'fastify';
import { registerJwt, requireUser, signAccessToken } from '../http/auth.js';
import { generateJwtKeys } from '../http/keys.js';
import { runService, type RunningService, type ServiceConfig } from '../service/service.js';
import { counterService, type CounterDB } from '../test/fixture.js';
import { createTestTokenSigner, type TestTokenSigner } from '../testing/identities.js';
import { createTestDatabase, eventually, infraGate, postgresServerUrl, type TestDatabase } from '../testing/infra.js';
import { capturingLog } from '../testing/logs.js';
import { maskPersonalFields } from './dead-letter-routes.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

/**
 * The console's stream routes (issue 18, ADR 0032) on a real service: the admin CLI's kit functions behind the
 * operator guard; destructive actions idempotent by key; rebuild and republish as jobs with progress.
 */
describe.runIf(run)('operator console: stream routes', () => {
  let testDb: TestDatabase;
  let database: Database<CounterDB>;
  let service: RunningService<CounterDB, ServiceConfig, unknown>;
  let signer: TestTokenSigner;
  let opToken: string;
  let userToken: string;
  const keys = generateJwtKeys();
  const operatorId = randomUUID();
  const { log } = capturingLog();
  const seen: ConsumerDefinition<CounterDB> = {
    durable: 'support--console-seen',
    context: 'support',
    handlers: {
      Incremented: {
        schema: z.object({ by: z.number() }),
        effect: async (trx, env) => {
          await sql`CREATE TABLE IF NOT EXISTS console_seen (event_id text NOT NULL)`.execute(trx);
          await sql`INSERT INTO console_seen (event_id) VALUES (${env.id})`.execute(trx);
        },
      },
    },
  };
  const call = async (method: string, path: string, opts: { token?: string; key?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.key) headers['idempotency-key'] = opts.key;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${service.url}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
    return { status: res.status, body: (await res.json().catch(() => null)) as any, replayed: res.headers.get('idempotent-replayed') };
  };
  const park = async (name: string) => {
    const env: EventEnvelope = {
      id: randomUUID(),
      type: 'Incremented',
      version: 1,
      streamId: `counter-${randomUUID()}`,
      streamVersion: 1,
      occurredAt: new Date().toISOString(),
      correlationId: 'c',
      causationId: null,
      data: { by: 1, name, email: 'someone@example.com' },
    };
    await recordDeadLetter(database, {
      consumer: seen.durable,
      subject: 'ques.support.Incremented',
      payload: JSON.stringify(env),
      eventId: env.id,
      error: 'boom',
      attempts: 5,
    });
    const row = await database.db.selectFrom('dead_letters').select('id').where('event_id', '=', env.id).executeTakeFirstOrThrow();
    return { id: Number(row.id), eventId: env.id };
  };
  const applied = async (eventId: string) =>
    Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM console_seen WHERE event_id = ${eventId}`.execute(database.db)).rows[0]!.n);

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<CounterDB>({ connectionString: testDb.url, schema: 'support' });
    signer = await createTestTokenSigner(keys);
    // The operator's token carries the operator claim (identity signs it; routeFor's guard checks it first).
    const opSigner = Fastify();
    await registerJwt(opSigner, { ...keys, issuer: 'ques-identity', audience: 'ques' });
    await opSigner.ready();
    opToken = signAccessToken(opSigner, { sub: operatorId, username: 'olive', sid: randomUUID(), typ: 'access', op: true });
    await opSigner.close();
    userToken = signer.sign({ id: randomUUID(), username: 'bob' });
    service = await runService(counterService, {
      config: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: 0,
        JWT_PUBLIC_KEY: keys.publicKey,
        JWT_ISSUER: 'ques-identity',
        JWT_AUDIENCE: 'ques',
      } as ServiceConfig,
      database,
      bus: new InProcessEventBus({ log }),
      log,
      signals: false,
      extraConsumers: [seen],
      // The test's operator: one user id (the real guard reads the token's operator claim).
      operatorGuard: async (request) => {
        const claims = await requireUser(request).catch(() => null);
        if (claims?.sub !== operatorId) throw notFound();
        return { userId: claims.sub, username: claims.username };
      },
    });
    await sql`CREATE TABLE IF NOT EXISTS console_seen (event_id text NOT NULL)`.execute(database.db);
  });
  afterAll(async () => {
    await service?.stop();
    await signer?.close();
    await database?.close();
    await testDb?.drop();
  });

  it('refuses everyone but the operator with a 404', async () => {
    for (const token of [undefined, userToken]) {
      expect((await call('GET', '/api/ops/streams/support/status', { token })).status).toBe(404);
      expect((await call('GET', '/api/ops/streams/support/dead-letters', { token })).status).toBe(404);
      expect((await call('POST', '/api/ops/streams/support/dead-letters/1/retry', { token, key: randomUUID() })).status).toBe(404);
      expect((await call('POST', '/api/ops/streams/support/rebuild', { token, key: randomUUID() })).status).toBe(404);
    }
    expect((await call('GET', '/api/ops/streams/support/status', { token: opToken })).status).toBe(200);
  });

  it('shows status and dead letters with personal fields masked', async () => {
    const letter = await park('Ada Lovelace');
    const status = await call('GET', '/api/ops/streams/support/status', { token: opToken });
    expect(status.body).toMatchObject({ service: 'support', outbox: { backlog: expect.any(Number) }, deadLetters: { [seen.durable]: 1 } });
    const list = await call('GET', '/api/ops/streams/support/dead-letters', { token: opToken });
    const shown = (list.body as { id: number; payload: any }[]).find((l) => l.id === letter.id)!;
    expect(shown.payload.data).toEqual({ by: 1, name: '•••', email: '•••' });
    expect(JSON.stringify(list.body)).not.toContain('Ada Lovelace');
    expect(JSON.stringify(list.body)).not.toContain('someone@example.com');
    await call('POST', `/api/ops/streams/support/dead-letters/${letter.id}/drop`, { token: opToken, key: randomUUID() });
  });

  it('retries a dead letter exactly once: the same key replays, another key finds nothing', async () => {
    const letter = await park('x');
    const key = randomUUID();
    const first = await call('POST', `/api/ops/streams/support/dead-letters/${letter.id}/retry`, { token: opToken, key });
    expect(first.body).toEqual({ id: letter.id, outcome: 'applied', error: null });
    const replay = await call('POST', `/api/ops/streams/support/dead-letters/${letter.id}/retry`, { token: opToken, key });
    expect(replay).toMatchObject({ status: 200, replayed: 'true', body: first.body });
    const again = await call('POST', `/api/ops/streams/support/dead-letters/${letter.id}/retry`, { token: opToken, key: randomUUID() });
    expect(again.body).toMatchObject({ outcome: 'not found' });
    expect(await applied(letter.eventId)).toBe(1);
    const logged = await sql<{ operator: string }>`SELECT operator FROM operator_log WHERE command = 'dead-letters retry' ORDER BY id DESC LIMIT 1`.execute(database.db);
    expect(logged.rows[0]!.operator).toContain('olive');
  });

  it('drops a dead letter idempotently', async () => {
    const letter = await park('y');
    const key = randomUUID();
    expect((await call('POST', `/api/ops/streams/support/dead-letters/${letter.id}/drop`, { token: opToken, key })).body).toEqual({ id: letter.id, dropped: true });
    expect((await call('POST', `/api/ops/streams/support/dead-letters/${letter.id}/drop`, { token: opToken, key })).body).toEqual({ id: letter.id, dropped: true });
    expect((await call('POST', `/api/ops/streams/support/dead-letters/${letter.id}/drop`, { token: opToken, key: randomUUID() })).body).toEqual({ id: letter.id, dropped: false });
    expect(await applied(letter.eventId)).toBe(0);
  });

  it('rebuilds and republishes as jobs with progress; a repeated start with the same key is the same job', async () => {
    for (let i = 0; i < 30; i++) await fetch(`${service.url}/counters/c${i % 3}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ by: 1 }) });
    const key = randomUUID();
    const started = await call('POST', '/api/ops/streams/support/rebuild', { token: opToken, key });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ command: 'rebuild-projections', operator: expect.stringContaining('olive') });
    const same = await call('POST', '/api/ops/streams/support/rebuild', { token: opToken, key });
    expect(same.body.id).toBe(started.body.id);
    const done = await eventually(async () => {
      const job = await call('GET', `/api/ops/streams/support/jobs/${started.body.id}`, { token: opToken });
      return job.body.status === 'done' ? job.body : undefined;
    }, 15_000);
    expect(done.progress.done).toBeGreaterThanOrEqual(30);
    const totals = await fetch(`${service.url}/counters/c0`).then((r) => r.json());
    expect(totals).toEqual({ total: 10 });

    const republish = await call('POST', '/api/ops/streams/support/republish', { token: opToken, key: randomUUID(), body: { from: 10 } });
    expect(republish.status).toBe(202);
    const finished = await eventually(async () => {
      const job = await call('GET', `/api/ops/streams/support/jobs/${republish.body.id}`, { token: opToken });
      return job.body.status === 'done' ? job.body : undefined;
    }, 15_000);
    expect(finished.progress).toMatchObject({ total: finished.progress.done });
    expect((await call('POST', '/api/ops/streams/support/republish', { token: opToken, key: randomUUID(), body: { from: 5, to: 2 } })).status).toBe(400);
  });

  it('masks personal fields at any depth', () => {
    expect(maskPersonalFields({ a: [{ email: 'x@y', n: 1 }], recipient: { name: 'Ada', userId: 'u' }, verified: true })).toEqual({
      a: [{ email: '•••', n: 1 }],
      recipient: { name: '•••', userId: 'u' },
      verified: true,
    });
  });
});
