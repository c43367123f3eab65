import { randomUUID } from 'node:crypto';
import fastifyJwt from '@fastify/jwt';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBus } from '../bus/bus.js';
import { InProcessEventBus } from '../bus/in-process-bus.js';
import { NatsEventBus } from '../bus/nats-bus.js';
import { connectPostgres, type Database } from '../db/database.js';
import { kitRevocationsMigration } from '../db/migrations/index.js';
import type { IdempotencyTables, KitTables, RevocationTables } from '../db/schema.js';
import { runService, type RunningService, type ServiceConfig, type ServiceDefinition } from '../service/service.js';
import { silentLog } from '../test/fixture.js';
import { createTestTokenSigner, integrationMessage, type TestTokenSigner } from '../testing/identities.js';
import {
  createTestDatabase,
  eventually,
  infraGate,
  postgresServerUrl,
  type TestDatabase,
} from '../testing/infra.js';
import { deleteNamespaceStreams, natsTestUrl, uniqueNamespace } from '../testing/nats.js';
import { optionalUser, registerJwt, requireUser } from './auth.js';
import { REVOCATION_RETENTION_MS, SESSION_ENDED } from './revocations.js';
import { generateJwtKeys } from './keys.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

const JWT = { issuer: 'ques-identity', audience: 'ques' };

interface VerifyingDB extends KitTables, IdempotencyTables, RevocationTables {}
type Verifying = ServiceDefinition<VerifyingDB, ServiceConfig, void>;

/** A service that verifies identity's tokens, as questions, payments and support do. */
function verifyingService(overrides: Partial<Verifying> = {}): Verifying {
  return {
    name: 'support',
    config: () => {
      throw new Error('the test gives the config');
    },
    migrations: { '2026_11_23_0002_kit_revocations': kitRevocationsMigration },
    projections: [],
    toIntegration: () => null,
    build: () => undefined,
    routes(app) {
      app.get('/me', async (request) => ({ sub: (await requireUser(request)).sub }));
      app.get('/maybe', async (request) => ({ sub: (await optionalUser(request))?.sub ?? null }));
    },
    ...overrides,
  };
}

const revoked = (userId: string, sessionIds: string[], reason = 'logout') =>
  integrationMessage({
    context: 'identity',
    type: 'SessionsRevoked',
    streamId: `sessions-${userId}`,
    data: { userId, sessionIds, reason, revokedAt: new Date().toISOString() },
  });

/** Signs a token with identity's key but with the claims the test chooses (missing exp or iat, another typ). */
async function rawSigner(privateKey: string, publicKey: string) {
  const app = Fastify();
  await app.register(fastifyJwt, {
    secret: { private: privateKey, public: publicKey },
    sign: { algorithm: 'EdDSA', iss: JWT.issuer, aud: JWT.audience },
  });
  await app.ready();
  return app;
}

describe('access tokens are refused without exp or iat, or with another typ', () => {
  it('answers 401 to each, and 200 to a complete access token', async () => {
    const keys = generateJwtKeys();
    const app = Fastify();
    await registerJwt(app, { ...keys, ...JWT });
    app.get('/me', async (request) => ({ sub: (await requireUser(request)).sub }));
    app.setErrorHandler((error: Error & { status?: number }, _request, reply) =>
      reply.status(error.status ?? 500).send({ message: error.message }),
    );
    await app.ready();
    const signer = await rawSigner(keys.privateKey, keys.publicKey);
    const claims = { sub: randomUUID(), username: 'ada', sid: randomUUID(), typ: 'access' as const };
    // Claims identity never issues, signed with its key all the same.
    const odd = (payload: Record<string, unknown>) => payload as unknown as typeof claims;
    const now = Math.floor(Date.now() / 1000);
    const tokens = {
      complete: signer.jwt.sign(claims, { expiresIn: 60 }),
      noExp: signer.jwt.sign(claims),
      noIat: signer.jwt.sign(odd({ ...claims, exp: now + 60 }), { noTimestamp: true }),
      refreshTyp: signer.jwt.sign(odd({ ...claims, typ: 'refresh' }), { expiresIn: 60 }),
      noSid: signer.jwt.sign(odd({ sub: claims.sub, username: 'ada', typ: 'access' }), { expiresIn: 60 }),
    };
    const status = async (token: string) =>
      (await app.inject({ method: 'GET', url: '/me', headers: { authorization: `Bearer ${token}` } }))
        .statusCode;
    expect(await status(tokens.complete)).toBe(200);
    expect(await status(tokens.noExp)).toBe(401);
    expect(await status(tokens.noIat)).toBe(401);
    expect(await status(tokens.refreshTyp)).toBe(401);
    expect(await status(tokens.noSid)).toBe(401);
    await signer.close();
    await app.close();
  });
});

describe.runIf(run)(
  'the revocation read model: identity says a session ended, every service refuses its tokens',
  () => {
    let testDb: TestDatabase;
    const databases: Database<VerifyingDB>[] = [];
    const runtimes: RunningService<VerifyingDB, ServiceConfig, void>[] = [];
    const buses: EventBus[] = [];
    let signer: TestTokenSigner;
    const keys = generateJwtKeys();
    const config: ServiceConfig = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: 0,
      BUS_NAMESPACE: '',
      JWT_PUBLIC_KEY: keys.publicKey,
      JWT_ISSUER: JWT.issuer,
      JWT_AUDIENCE: JWT.audience,
    };
    const namespace = uniqueNamespace('revocations');
    let offsetMs = 0;
    const clock = () => new Date(Date.now() + offsetMs);

    beforeAll(async () => {
      testDb = await createTestDatabase();
      signer = await createTestTokenSigner(keys);
    });
    afterAll(async () => {
      for (const runtime of runtimes) await runtime.stop();
      for (const bus of buses) await bus.close();
      await deleteNamespaceStreams(natsUrl!, namespace);
      for (const database of databases) await database.close();
      await signer?.close();
      await testDb?.drop();
    });

    // Each "service" has a schema of its own (and so a durable of its own), like questions and payments.
    async function start(bus: EventBus, schema: string, overrides: Partial<Verifying> = {}) {
      const database = connectPostgres<VerifyingDB>({ connectionString: testDb.url, schema });
      databases.push(database);
      const runtime = await runService(verifyingService(overrides), {
        config,
        database,
        bus,
        log: silentLog,
        clock,
        port: 0,
        pollIntervalMs: 100,
      });
      runtimes.push(runtime);
      return runtime;
    }
    const me = async (runtime: RunningService<VerifyingDB, ServiceConfig, void>, token: string, url = '/me') =>
      runtime.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

    for (const mode of ['nats', 'in-process'] as const) {
      it(`${mode}: refuses a revoked session's token within a second, keeps the user's other sessions, and applies each event once`, async () => {
        const bus: EventBus =
          mode === 'nats'
            ? await NatsEventBus.connect({
                servers: natsUrl!,
                name: 'revocations-test',
                namespace,
                log: silentLog,
              })
            : new InProcessEventBus({ log: silentLog });
        buses.push(bus);
        // Two services on one bus, each with its own schema and durable consumer, like questions and payments.
        const questions = await start(bus, `questions_${mode.replace('-', '_')}`);
        const payments = await start(bus, `payments_${mode.replace('-', '_')}`);
        const user = { id: randomUUID(), username: 'ada' };
        const phone = signer.sign(user);
        const laptop = signer.sign(user);
        for (const runtime of [questions, payments]) {
          expect((await me(runtime, phone)).statusCode).toBe(200);
          expect((await me(runtime, laptop)).statusCode).toBe(200);
        }
        const phoneSid = JSON.parse(Buffer.from(phone.split('.')[1]!, 'base64url').toString()).sid as string;
        const message = revoked(user.id, [phoneSid]);
        const sentAt = Date.now();
        await bus.publish([message]);
        for (const runtime of [questions, payments]) {
          await eventually(async () => (await me(runtime, phone)).statusCode === 401, 1_000, 10);
        }
        const elapsed = Date.now() - sentAt;
        expect(elapsed).toBeLessThan(1_000);
        const refused = await me(questions, phone);
        expect(refused.json()).toEqual({ message: SESSION_ENDED, code: 'UNAUTHORIZED' });
        // optionalUser refuses it too (a revoked token is not quietly treated as a guest).
        expect((await me(payments, phone, '/maybe')).statusCode).toBe(401);
        expect((await me(questions, laptop)).statusCode).toBe(200);
        // A redelivery changes nothing and is recorded once.
        await bus.publish([{ ...message, msgId: randomUUID() }]);
        await eventually(async () => {
          const rows = await questions.ctx.database.db
            .selectFrom('processed_events')
            .select('event_id')
            .where('event_id', '=', message.envelope.id)
            .execute();
          return rows.length === 1;
        });
        const count = await questions.ctx.database.db
          .selectFrom('revoked_sessions')
          .select('session_id')
          .execute();
        expect(count.map((r) => r.session_id)).toEqual([phoneSid]);
      });
    }

    it('two instances of one service (one schema, one durable): whichever applies the event, both refuse the token at once', async () => {
      const bus = new InProcessEventBus({ log: silentLog });
      buses.push(bus);
      const first = await start(bus, 'replicated');
      const second = await start(bus, 'replicated');
      const user = { id: randomUUID(), username: 'ada' };
      const tokens = [signer.sign(user), signer.sign(user)];
      // The in-process bus hands each event to one member of the durable, like JetStream: one instance per event.
      for (const token of tokens) {
        await bus.publish([
          revoked(user.id, [JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid]),
        ]);
        for (const runtime of [first, second])
          await eventually(async () => (await me(runtime, token)).statusCode === 401, 1_000, 10);
      }
      const applied = await first.ctx.database.db
        .selectFrom('processed_events')
        .select('event_id')
        .where('consumer', '=', 'replicated--revocations')
        .execute();
      expect(applied).toHaveLength(2);
    });

    it('picks up a revocation whose notification was lost within the fallback poll', async () => {
      const bus = new InProcessEventBus({ log: silentLog });
      buses.push(bus);
      const runtime = await start(bus, 'quiet');
      const user = { id: randomUUID(), username: 'ada' };
      const token = signer.sign(user);
      expect((await me(runtime, token)).statusCode).toBe(200);
      // Written as the consumer would, but without its NOTIFY.
      await runtime.ctx.database.db
        .insertInto('revoked_sessions')
        .values({
          session_id: JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid,
          user_id: user.id,
          reason: 'logout',
          revoked_at: new Date(),
        })
        .execute();
      await eventually(async () => (await me(runtime, token)).statusCode === 401, 1_500, 20);
    });

    it('drops revoked sessions after a day (their tokens died long before) when the next revocation arrives', async () => {
      const bus = new InProcessEventBus({ log: silentLog });
      buses.push(bus);
      const runtime = await start(bus, 'support_purge');
      const old = randomUUID();
      await bus.publish([revoked(randomUUID(), [old])]);
      await eventually(
        async () =>
          !!(await runtime.ctx.database.db
            .selectFrom('revoked_sessions')
            .select('session_id')
            .where('session_id', '=', old)
            .executeTakeFirst()),
      );
      offsetMs = REVOCATION_RETENTION_MS + 60_000;
      const fresh = randomUUID();
      await bus.publish([revoked(randomUUID(), [fresh])]);
      offsetMs = 0;
      const left = (
        await runtime.ctx.database.db.selectFrom('revoked_sessions').select('session_id').execute()
      ).map((r) => r.session_id);
      expect(left).toEqual([fresh]);
    });

    it('refuses to start a token-verifying service that forgot the revocations migration; identity (ownsSessions) needs none', async () => {
      const bus = new InProcessEventBus({ log: silentLog });
      buses.push(bus);
      await expect(start(bus, 'forgetful', { migrations: {} })).rejects.toThrow(/kitRevocationsMigration/);
      const issuer = await start(bus, 'issuer', { migrations: {}, ownsSessions: true });
      const token = signer.sign({ id: randomUUID(), username: 'ada' });
      expect((await me(issuer, token)).statusCode).toBe(200);
      expect(issuer.app.revocations).toBeNull();
    });
  },
);
