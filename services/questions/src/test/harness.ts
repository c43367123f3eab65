import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import pino from 'pino';
import { type Context, type EventEnvelope, type UserSnapshot } from '@ques/contracts';
import {
  internalCallHeaders,
  connectPostgres,
  fileMailer,
  runService,
  type Database,
  type Mailer,
  type MailMessage,
  type NatsEventBus,
  type RunningService,
} from '@ques/kit';
import { eventually, startTestBed, userSnapshot, type PublishEvent, type TestDatabase } from '@ques/kit/testing';
import { loadQuestionsConfig, type QuestionsConfig } from '../config.js';
import type { QuestionsDB } from '../db/schema.js';
import { questionsService, type QuestionsParts } from '../service.js';

export type QuestionsInstance = RunningService<QuestionsDB, QuestionsConfig, QuestionsParts>;

/** The internal token both instances are given (required in every run mode, ADR 0060), and what a caller sends. */
export const INTERNAL_TOKEN = 'test-internal-token-0123456789';
export const INTERNAL_HEADERS = internalCallHeaders(INTERNAL_TOKEN);

export const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A mailer whose next `failures` sends throw (an SMTP outage), writing .eml files otherwise. */
export class FlakyMailer implements Mailer {
  readonly transport = 'file' as const;
  failures = 0;
  attempts = 0;
  private readonly inner: Mailer;
  constructor(readonly dir: string) {
    this.inner = fileMailer(dir, 'Ques <no-reply@ques.test>', log);
  }
  async send(mail: MailMessage) {
    this.attempts += 1;
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('SMTP server unreachable');
    }
    return this.inner.send(mail);
  }
  close() {
    this.inner.close();
  }
}

export interface Harness {
  testDb: TestDatabase;
  database: Database<QuestionsDB>;
  bus: NatsEventBus;
  namespace: string;
  /** Two instances of the service on one database and one bus, like a scaled-out deployment. */
  a: QuestionsInstance;
  b: QuestionsInstance;
  mailer: FlakyMailer;
  /** The clock both instances use: real time plus `advance`d offset. */
  advance(ms: number): void;
  now(): Date;
  token(user: { id: string; username: string }): string;
  /** Publishes an identity event the way identity's relay would (envelope, msgID = event id). */
  /** `redeliver`: the id of an event already published — the same envelope again under a new transport msgID. */
  publishIdentity(
    type: 'UserRegistered' | 'ProfileUpdated' | 'UserDeleted',
    data: UserSnapshot | { userId: string; deletedAt: string },
    streamVersion: number,
    redeliver?: string,
  ): Promise<EventEnvelope>;
  publish: PublishEvent;
  /** Resolves once the durable consumer has nothing pending or unacknowledged on the context's stream. */
  consumerIdle(context: Context, durable: string): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /**
   * Instance b gets a database handle (pool and listening connection) of its own, as another process would have:
   * what a's commits tell it arrives by NOTIFY only (the read cache, ADR 0040). Default: both share one handle.
   */
  separateDatabases?: boolean;
  /** Environment both instances add to the test's (e.g. `READ_CACHE: 'off'`). */
  env?: Record<string, string>;
}

export async function startHarness(natsUrl: string, opts: HarnessOptions = {}): Promise<Harness> {
  const bed = await startTestBed<QuestionsDB>({ natsUrl, schema: 'questions', log });
  const mailer = new FlakyMailer(join(mkdtempSync(join(tmpdir(), 'ques-questions-')), 'mail'));
  const options = {
    config: loadQuestionsConfig({ JWT_PUBLIC_KEY: bed.keys.publicKey, PUBLIC_ORIGIN: 'https://ques.test', INTERNAL_API_TOKEN: INTERNAL_TOKEN, ...opts.env }),
    database: bed.database,
    bus: bed.bus,
    log,
    clock: bed.clock,
    mailer,
    port: 0,
    pollIntervalMs: 50,
  };
  const a = await runService(questionsService, options);
  const ownDatabase = opts.separateDatabases
    ? connectPostgres<QuestionsDB>({ connectionString: bed.testDb.url, schema: 'questions', max: 5 })
    : null;
  const b = await runService(questionsService, { ...options, database: ownDatabase ?? bed.database });

  return {
    testDb: bed.testDb,
    database: bed.database,
    bus: bed.bus,
    namespace: bed.namespace,
    a,
    b,
    mailer,
    advance: bed.advance,
    now: bed.clock,
    token: bed.token,
    publishIdentity: (type, data, streamVersion, redeliver) =>
      bed.publish({ context: 'identity', type, data, streamId: `user-${data.userId}`, streamVersion, redeliver }),
    publish: (context, type, data, streamId, streamVersion) => bed.publish({ context, type, data, streamId, streamVersion }),
    async consumerIdle(context, durable) {
      const nc = await connect({ servers: natsUrl });
      try {
        const jsm = await nc.jetstreamManager();
        const stream = `${bed.namespace.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}_${context.toUpperCase()}`;
        await eventually(async () => {
          const info = await jsm.consumers.info(stream, durable);
          return info.num_pending === 0 && info.num_ack_pending === 0;
        });
      } finally {
        await nc.close();
      }
    },
    async close() {
      await a.stop();
      await b.stop();
      await ownDatabase?.close();
      mailer.close();
      await bed.close();
    },
  };
}

/** A user as identity's events carry them. */
export const snapshot = userSnapshot;

/** Registers a user through identity's event and waits until the questions service knows them. */
export async function registerUser(
  h: Harness,
  over: Partial<UserSnapshot> & { username: string },
): Promise<{ id: string; username: string; email: string; name: string; token: string }> {
  const userId = over.userId ?? randomUUID();
  const snap = snapshot({ ...over, userId });
  await h.publishIdentity('UserRegistered', snap, 1);
  await eventually(() => h.a.parts.recipients.byId(userId));
  return {
    id: userId,
    username: snap.username,
    email: snap.email,
    name: snap.name,
    token: h.token({ id: userId, username: snap.username }),
  };
}

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A call into instance a as a browser makes it (bearer `token` if any): status, parsed body, raw text, headers. Each
 * call is a fresh browser with its own device token (asks without one share a guest-limit bucket, ADR 0054).
 */
export async function callApi(h: Harness, method: ApiMethod, url: string, body?: unknown, token?: string) {
  const res = await h.a.app.inject({
    method,
    url,
    payload: body as never,
    headers: {
      'x-ques-device': `device-${randomUUID().replace(/-/g, '')}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
  });
  return { status: res.statusCode, body: res.body ? res.json() : null, text: res.body, headers: res.headers };
}

/**
 * The body of a free question a guest asks `to` (`over` replaces any field): each one a different guest's address, as
 * the guest limit counts by address too (ADR 0054).
 */
export function guestQuestion(to: { id: string; username: string }, question: string, over: Record<string, unknown> = {}) {
  return {
    question,
    detail: '',
    tip: 0,
    toUserId: to.id,
    toUsername: to.username,
    askedName: 'Grace Guest',
    askedEmail: `grace.${randomUUID().slice(0, 8)}@example.com`,
    agreedToTerms: true,
    ...over,
  };
}
