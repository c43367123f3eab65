import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UserSnapshot } from '@ques/contracts';
import {
  connectEmbedded,
  createLogger,
  fileMailer,
  generateJwtKeys,
  InProcessEventBus,
  openEmbeddedPostgres,
  runService,
  type EmbeddedPostgres,
  type RunningService,
} from '@ques/kit';
import { createTestTokenSigner, eventually, integrationMessage } from '@ques/kit/testing';
import {
  HttpQuestionsClient,
  loadPaymentsConfig,
  paymentsService,
  type PaymentsConfig,
  type PaymentsDB,
  type PaymentsOverrides,
  type PaymentsParts,
} from '@ques/payments';
import { loadQuestionsConfig, questionsService, type QuestionsConfig, type QuestionsDB, type QuestionsParts } from '@ques/questions';

export const ORIGIN = 'http://localhost:3000';

export interface CallOptions {
  token?: string;
  device?: string;
  ip?: string;
}

/**
 * Questions and payments side by side in the embedded configuration — one PGlite session, the in-process bus, the
 * local test-mode provider, payments calling questions over HTTP — as the tipped-question tests walk them.
 */
export interface TippedPair {
  pg: EmbeddedPostgres;
  bus: InProcessEventBus;
  questions: RunningService<QuestionsDB, QuestionsConfig, QuestionsParts>;
  payments: RunningService<PaymentsDB, PaymentsConfig, PaymentsParts, PaymentsOverrides>;
  /** An access token for `user`. */
  token(user: { id: string; username: string }): string;
  /** A call as a browser makes it (absolute links of the pages allowed): status, body (parsed when JSON), Location. */
  call(
    runtime: { app: RunningService['app'] },
    method: string,
    url: string,
    body?: unknown,
    opts?: CallOptions,
  ): Promise<{ status: number; body: any; location: string | undefined }>;
  /** Presses a button of a hosted test-mode page (a form POST with no fields). */
  press(url: string): Promise<{ statusCode: number; headers: Record<string, unknown> }>;
  /** Identity registers `username`: its snapshot is published and questions knows the person. */
  register(username: string, name: string): Promise<{ id: string; username: string; token: string }>;
  stop(): Promise<void>;
}

export async function startTippedPair(opts: { name: string; clock?: () => Date }): Promise<TippedPair> {
  const log = createLogger(opts.name, process.env.TEST_LOG_LEVEL ?? 'silent');
  const clock = opts.clock ?? (() => new Date());
  const pg = await openEmbeddedPostgres();
  const bus = new InProcessEventBus({ log });
  const keys = generateJwtKeys();
  // Required in every run mode (ADR 0060): payments sends it on its hand-over and screening calls.
  const internalToken = randomBytes(24).toString('hex');
  const questions = await runService(questionsService, {
    config: loadQuestionsConfig({ JWT_PUBLIC_KEY: keys.publicKey, PUBLIC_ORIGIN: ORIGIN, INTERNAL_API_TOKEN: internalToken }),
    database: connectEmbedded<QuestionsDB>(pg, 'questions'),
    bus,
    log,
    ...(opts.clock ? { clock: opts.clock } : {}),
    mailer: fileMailer(join(mkdtempSync(join(tmpdir(), `ques-${opts.name}-`)), 'mail'), 'Ques <no-reply@ques.test>', log),
    port: 0,
    pollIntervalMs: 50,
  });
  const payments = await runService(paymentsService, {
    config: loadPaymentsConfig({ JWT_PUBLIC_KEY: keys.publicKey, PUBLIC_ORIGIN: ORIGIN, INTERNAL_API_TOKEN: internalToken }),
    database: connectEmbedded<PaymentsDB>(pg, 'payments'),
    bus,
    log,
    ...(opts.clock ? { clock: opts.clock } : {}),
    port: 0,
    pollIntervalMs: 50,
    overrides: { provider: { kind: 'test', pagesBaseUrl: ORIGIN }, questions: new HttpQuestionsClient({ baseUrl: questions.url, internalToken }) },
  });
  const signer = await createTestTokenSigner(keys);
  const token = (user: { id: string; username: string }) => signer.sign(user);

  return {
    pg,
    bus,
    questions,
    payments,
    token,
    async call(runtime, method, url, body, callOpts = {}) {
      const headers: Record<string, string> = {};
      if (callOpts.token) headers.authorization = `Bearer ${callOpts.token}`;
      if (callOpts.device) headers['x-ques-device'] = callOpts.device;
      const res = await runtime.app.inject({
        method: method as never,
        url: url.replace(ORIGIN, ''),
        payload: body as never,
        headers,
        remoteAddress: callOpts.ip,
      });
      return {
        status: res.statusCode,
        body: res.body && res.headers['content-type']?.toString().includes('json') ? res.json() : res.body,
        location: res.headers.location,
      };
    },
    press: (url) =>
      payments.app.inject({
        method: 'POST',
        url: url.replace(ORIGIN, ''),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      }),
    async register(username, name) {
      const userId = randomUUID();
      const snap: UserSnapshot = {
        userId,
        username,
        name,
        email: `${username}@example.com`,
        bio: '',
        avatarUrl: '/images/user-image.png',
        brandColorMain: '#1A140F',
        brandColorLight: '#FAF6F2',
        archiveProfile: false,
      };
      await bus.publish([
        integrationMessage({ context: 'identity', type: 'UserRegistered', data: snap, streamId: `user-${userId}`, occurredAt: clock() }),
      ]);
      await eventually(async () => !!(await questions.parts.recipients.byId(userId)));
      return { id: userId, username, token: token({ id: userId, username }) };
    },
    async stop() {
      await payments.stop();
      await questions.stop();
      await signer.close();
      await bus.close();
      await pg.pglite.close();
    },
  };
}
