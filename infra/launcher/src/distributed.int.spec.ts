import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBff } from '@ques/bff';
import { identityService, loadIdentityConfig, type IdentityDB } from '@ques/identity';
import { loadQuestionsConfig, questionsService, type QuestionsDB } from '@ques/questions';
import { connectPostgres, createMailer, generateJwtKeys, NatsEventBus, runService, SESSION_ENDED, type Database, type RunningService } from '@ques/kit';
import {
  createTestDatabase,
  deleteNamespaceStreams,
  eventually,
  infraGate,
  natsTestUrl,
  postgresServerUrl,
  uniqueNamespace,
  type TestDatabase,
} from '@ques/kit/testing';
import { call, identityJourney, signup, TEST_PASSWORD } from './test/identity-journey.js';
import { questionsJourney } from './test/questions-journey.js';
import { expectRefusedEverywhereWithin } from './test/revocation.js';

const log = pino({ level: 'silent' });
const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

describe.runIf(run)('distributed topology (real Postgres + NATS JetStream), through the BFF', () => {
  let testDb: TestDatabase;
  let database: Database<IdentityDB>;
  let bus: NatsEventBus;
  let identity: RunningService<IdentityDB>;
  let questionsDb: Database<QuestionsDB>;
  let questions: RunningService<QuestionsDB>;
  const mailDir = join(mkdtempSync(join(tmpdir(), 'ques-journey-')), 'mail');
  const mailer = createMailer({ from: 'Ques <no-reply@ques.test>', mailDir, log });
  let bff: FastifyInstance;
  let base: string;
  const namespace = uniqueNamespace('journey');

  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = connectPostgres<IdentityDB>({ connectionString: testDb.url, schema: 'identity' });
    bus = await NatsEventBus.connect({ servers: natsUrl!, name: 'journey', namespace, log });
    const keys = generateJwtKeys();
    const jwt = { issuer: 'ques-identity', audience: 'ques' };
    const internal = { INTERNAL_API_TOKEN: randomBytes(24).toString('hex') };
    identity = await runService(identityService, {
      config: loadIdentityConfig({ JWT_PUBLIC_KEY: keys.publicKey, JWT_PRIVATE_KEY: keys.privateKey, ...internal }),
      database,
      bus,
      log,
      // The verification links the journeys open are mailed by identity.
      mailer,
      port: 0,
      pollIntervalMs: 100,
    });
    questionsDb = connectPostgres<QuestionsDB>({ connectionString: testDb.url, schema: 'questions' });
    questions = await runService(questionsService, {
      config: loadQuestionsConfig({ JWT_PUBLIC_KEY: keys.publicKey, ...internal }),
      database: questionsDb,
      bus,
      log,
      mailer,
      port: 0,
      pollIntervalMs: 100,
    });
    bff = await buildBff({ log, upstreams: { identity: identity.url, questions: questions.url }, jwt: { publicKey: keys.publicKey, ...jwt }, publicOrigin: 'http://localhost:3000', authRateLimitPerMinute: 1000 });
    base = await bff.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await bff?.close();
    await identity?.stop();
    await questions?.stop();
    mailer.close();
    await bus?.close();
    await deleteNamespaceStreams(natsUrl!, namespace);
    await database?.close();
    await questionsDb?.close();
    await testDb?.drop();
  });

  it('walks the identity journey and publishes its events to JetStream', async () => {
    const types: string[] = [];
    await bus.subscribe({
      durable: 'test--journey-events',
      context: 'identity',
      subjects: ['ques.identity.>'],
      handler: async (envelope) => {
        types.push(envelope.type);
        expect(JSON.stringify(envelope.data)).not.toMatch(/argon2|passwordHash/);
      },
      onPoison: async () => {},
    });
    const { username } = await identityJourney(base, 'distributed');
    expect(username).toBe('ada-lovelace');
    await eventually(async () => types.filter((t) => t === 'UserRegistered').length === 2 && types.includes('PasswordChanged'));
    expect(types).toContain('ProfileUpdated');
  });

  it('walks the questions journey and publishes its events to JetStream', async () => {
    const events: { type: string; data: unknown }[] = [];
    await bus.subscribe({
      durable: 'test--journey-questions',
      context: 'questions',
      subjects: ['ques.questions.>'],
      handler: async (envelope) => void events.push({ type: envelope.type, data: envelope.data }),
      onPoison: async () => {},
    });
    const { questionIds } = await questionsJourney(base, 'distributed', mailDir);
    const types = ['QuestionAsked', 'QuestionCurated', 'AnswerPosted', 'AnswerEdited', 'QuestionVisibilityChanged', 'QuestionDeletedByReceiver', 'QuestionWithdrawn'];
    await eventually(async () => types.every((t) => events.some((e) => e.type === t)) && events.filter((e) => e.type === 'QuestionWithdrawn').length === 1);
    expect(events.map((e) => (e.data as { questionId: string }).questionId)).toEqual(expect.arrayContaining(questionIds));
    expect(JSON.stringify(events)).not.toContain('@');
  });

  it('refuses a logged-out session, and the other sessions after a password change, on questions within a second (outbox → JetStream → consumer)', async () => {
    const me = await signup(base, 'Nia Nats', 'nia.nats@example.com');
    const login = async () => (await call(base, 'POST', '/api/users/login', { email: me.email, password: TEST_PASSWORD })).body.accessToken as string;
    const mine = (token: string) => ({ name: 'questions: list my questions', send: () => call(base, 'GET', '/api/questions', undefined, token), accepted: [200] });
    const [laptop, phone, desk] = [await login(), await login(), await login()];
    for (const token of [laptop, phone, desk]) await eventually(async () => (await mine(token).send()).status === 200);
    expect((await call(base, 'POST', '/api/users/logout', {}, laptop)).status).toBe(200);
    await expectRefusedEverywhereWithin([mine(laptop)], 1_000, SESSION_ENDED);
    expect((await mine(phone).send()).status).toBe(200);
    expect((await call(base, 'PUT', '/api/users/profile', { newPassword: 'a brand new passphrase', currentPassword: TEST_PASSWORD }, desk)).status).toBe(200);
    await expectRefusedEverywhereWithin([mine(phone), mine(me.token)], 1_000, SESSION_ENDED);
    expect((await mine(desk).send()).status).toBe(200);
  });

  it('rejects a CORS preflight from another origin and allows the app origin', async () => {
    const foreign = await fetch(`${base}/api/users/login`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const own = await fetch(`${base}/api/users/login`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(own.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });
});

/** A service's own process, configured only by its environment, as the distributed topology starts it. */
const serviceMain = (name: string) => fileURLToPath(new URL(`../../../services/${name}/dist/main.js`, import.meta.url));

describe.runIf(run)('distributed: a service without INTERNAL_API_TOKEN refuses to start (issue 33, ADR 0060)', () => {
  it.each(['identity', 'questions', 'payments'])('%s exits at once, naming the variable and what it is', async (name) => {
    const keys = generateJwtKeys();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: '0',
      // Nowhere: a service that got past its configuration would wait for them, never touch anyone's.
      DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
      NATS_URL: 'nats://127.0.0.1:9',
      BUS_NAMESPACE: uniqueNamespace('no-token'),
      JWT_PUBLIC_KEY: keys.publicKey,
      JWT_PRIVATE_KEY: keys.privateKey,
      PAYMENTS_TEST_MODE: 'true',
    };
    const started = Date.now();
    const outcome = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(process.execPath, [serviceMain(name)], { env, timeout: 20_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(outcome.code, outcome.output).not.toBe(0);
    expect(outcome.output).toMatch(/INTERNAL_API_TOKEN: required: the shared secret of the \/internal\/\* calls/);
    // Before any waiting for Postgres or NATS: a configuration error is not retried.
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 40_000);
});

