import { randomUUID } from 'node:crypto';
import pino from 'pino';
import Stripe from 'stripe';
import { type Context, type UserSnapshot } from '@ques/contracts';
import { runService, type Database, type NatsEventBus, type RunningService } from '@ques/kit';
import { eventually, startTestBed, userSnapshot, type PublishEvent, type TestDatabase } from '@ques/kit/testing';
import { loadPaymentsConfig, type PaymentsConfig } from '../config.js';
import type { PaymentsDB } from '../db/schema.js';
import { paymentsService, type PaymentsOverrides, type PaymentsParts, type ProviderChoice } from '../service.js';
import { QuestionsStandIn } from './questions-stand-in.js';
import { StripeDouble } from './stripe-double.js';

/** The internal token the instances are given (required in every run mode, ADR 0060), and what a caller sends. */
export const INTERNAL_TOKEN = 'test-internal-token-0123456789';
export const INTERNAL_HEADERS = { 'x-internal-token': INTERNAL_TOKEN };

export type PaymentsInstance = RunningService<PaymentsDB, PaymentsConfig, PaymentsParts, PaymentsOverrides>;

export const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
export const WEBHOOK_SECRET = 'whsec_test_payments_harness_secret';
/** A second endpoint's secret (Connect events), accepted too in Stripe mode. */
export const CONNECT_WEBHOOK_SECRET = 'whsec_test_payments_connect_endpoint';
export const PUBLIC_ORIGIN = 'https://ques.test';

export interface User {
  id: string;
  username: string;
  name: string;
  email: string;
  token: string;
}

export interface Response {
  status: number;
  body: any;
  text: string;
  headers: Record<string, unknown>;
}

export interface Harness {
  testDb: TestDatabase;
  database: Database<PaymentsDB>;
  bus: NatsEventBus;
  /** Two payments instances on one database and bus (a scaled-out deployment). */
  a: PaymentsInstance;
  b: PaymentsInstance;
  /** Questions' side of the contract: the hand-over call, questions' events, what questions would show. */
  questions: QuestionsStandIn;
  /** Set in `stripe` mode: the SDK of the providers points at it. */
  double: StripeDouble | null;
  /** An SDK instance for signing webhooks the way Stripe does. */
  stripe: Stripe;
  advance(ms: number): void;
  now(): Date;
  token(user: { id: string; username: string }): string;
  api(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    token?: string,
    instance?: 'a' | 'b',
    headers?: Record<string, string>,
  ): Promise<Response>;
  /** Publishes an event the way another service's relay would. */
  publish: PublishEvent;
  registerUser(over: Partial<UserSnapshot> & { username: string }): Promise<User>;
  /** Signs and posts a webhook payload (raw string) to instance `a`. */
  postWebhook(payload: string, signature?: string | null, instance?: 'a' | 'b'): Promise<Response>;
  signature(payload: string, timestamp?: number): string;
  close(): Promise<void>;
}

export async function startHarness(
  natsUrl: string,
  opts: { provider: 'stripe' | 'test'; finalizeWaitMs?: number },
): Promise<Harness> {
  const bed = await startTestBed<PaymentsDB>({ natsUrl, schema: 'payments', log, maxConnections: 30 });
  const { database, bus, clock } = bed;
  const questions = new QuestionsStandIn(bus, clock);
  await questions.start();

  let double: StripeDouble | null = null;
  let provider: ProviderChoice;
  if (opts.provider === 'stripe') {
    double = new StripeDouble();
    await double.start();
    provider = {
      kind: 'stripe',
      options: {
        secretKey: 'sk_test_double',
        webhookSecret: `${WEBHOOK_SECRET}, ${CONNECT_WEBHOOK_SECRET}`,
        ...double.sdkOptions,
        maxNetworkRetries: 0,
      },
    };
  } else {
    provider = { kind: 'test', pagesBaseUrl: PUBLIC_ORIGIN, webhookSecret: WEBHOOK_SECRET };
  }
  const options = {
    config: loadPaymentsConfig({ JWT_PUBLIC_KEY: bed.keys.publicKey, PUBLIC_ORIGIN, INTERNAL_API_TOKEN: INTERNAL_TOKEN }),
    database,
    bus,
    log,
    clock,
    port: 0,
    pollIntervalMs: 50,
    overrides: { provider, questions, finalizeWaitMs: opts.finalizeWaitMs ?? 5_000 },
  };
  const a = await runService(paymentsService, options);
  const b = await runService(paymentsService, options);

  const stripe = new Stripe('sk_test_signing_only');

  const inject = async (
    app: PaymentsInstance['app'],
    method: string,
    url: string,
    body?: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ): Promise<Response> => {
    const res = await app.inject({
      method: method as never,
      url,
      payload: body as never,
      headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
    });
    let json: unknown = null;
    try {
      json = res.body ? res.json() : null;
    } catch {
      json = null;
    }
    return { status: res.statusCode, body: json, text: res.body, headers: res.headers };
  };

  const publish = (context: Context, type: string, data: unknown, streamId: string, streamVersion = 1) =>
    bed.publish({ context, type, data, streamId, streamVersion });
  const { token } = bed;
  const signature = (payload: string, timestamp = Math.floor(clock().getTime() / 1000)) =>
    stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp });

  return {
    testDb: bed.testDb,
    database,
    bus,
    a,
    b,
    questions,
    double,
    stripe,
    advance: bed.advance,
    now: clock,
    token,
    api: (method, url, body, tok, instance = 'a', headers) =>
      inject((instance === 'a' ? a : b).app, method, url, body, tok, headers),
    publish,
    async registerUser(over) {
      const userId = over.userId ?? randomUUID();
      const snap = userSnapshot({ ...over, userId });
      await publish('identity', 'UserRegistered', snap, `user-${userId}`, 1);
      await eventually(async () => a.parts.users.byId(userId));
      return {
        id: userId,
        username: snap.username,
        name: snap.name,
        email: snap.email,
        token: token({ id: userId, username: snap.username }),
      };
    },
    async postWebhook(payload, sig, instance = 'a') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      const value = sig === undefined ? signature(payload) : sig;
      if (value !== null) headers['stripe-signature'] = value;
      const res = await (instance === 'a' ? a : b).app.inject({
        method: 'POST',
        url: '/api/payments/webhook',
        payload,
        headers,
      });
      return {
        status: res.statusCode,
        body: res.body ? res.json() : null,
        text: res.body,
        headers: res.headers,
      };
    },
    signature,
    async close() {
      await a.stop();
      await b.stop();
      await questions.stop();
      await double?.stop();
      await bed.close();
    },
  };
}

/** Tip stream events of a question, in order. */
export async function tipEventTypes(h: Harness, questionId: string): Promise<string[]> {
  const rows = await h.database.db
    .selectFrom('events')
    .select('type')
    .where('stream_id', '=', `tip-${questionId}`)
    .orderBy('stream_version')
    .execute();
  return rows.map((r) => r.type);
}

/** An owner with a completed payout account and tipping on (through the API and the provider's own flow). */
export async function tippingOwner(
  h: Harness,
  username: string,
  options: string[] = ['$0', '$5', '$25', 'Custom'],
): Promise<User> {
  const owner = await h.registerUser({
    username,
    name: `${username[0]!.toUpperCase()}${username.slice(1)} Owner`,
  });
  const connected = await h.api(
    'POST',
    '/api/payments/connect',
    { userId: owner.id, country: 'CA' },
    owner.token,
  );
  if (connected.status !== 200) throw new Error(`connect failed: ${connected.text}`);
  const accountId = connected.body.stripeAccountId as string;
  if (h.double) {
    h.double.setAccount(accountId, { charges_enabled: true, payouts_enabled: true, details_submitted: true });
    const event = h.double.event('account.updated', h.double.accounts.get(accountId)!);
    await h.postWebhook(JSON.stringify(event));
  } else {
    const done = await h.a.app.inject({
      method: 'POST',
      url: `/pay/test/onboarding/${accountId}/complete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    if (done.statusCode !== 303) throw new Error(`onboarding failed: ${done.body}`);
  }
  await eventually(async () => (await h.a.parts.accounts.byUser(owner.id))?.status === 'completed');
  const saved = await h.api(
    'PUT',
    '/api/payments/tipOptions',
    { userId: owner.id, tipOptions: options.map((value) => ({ value })), tippingEnabled: true },
    owner.token,
  );
  if (saved.status !== 200) throw new Error(`tip options failed: ${saved.text}`);
  return owner;
}

export const guestQuestion = (to: User, question: string, over: Record<string, unknown> = {}) => ({
  question,
  detail: '',
  tip: 5,
  isCurated: false,
  toUserId: to.id,
  toUsername: to.username,
  recipientName: to.name,
  fromUsername: 'guest',
  askedName: 'Grace Guest',
  askedEmail: 'grace@example.com',
  yourName: 'Grace Guest',
  yourEmail: 'grace@example.com',
  agreedToTerms: true,
  ...over,
});
