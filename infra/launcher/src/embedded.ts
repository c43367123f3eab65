import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildBff } from '@ques/bff';
import { EMBEDDED_PID_FILE, identityService, loadIdentityConfig, type IdentityConfig, type IdentityDB, type IdentityParts } from '@ques/identity';
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
import {
  loadOrCreateCaptchaKey,
  loadSupportConfig,
  supportService,
  type SupportConfig,
  type SupportDB,
  type SupportParts,
} from '@ques/support';
import {
  connectEmbedded,
  createLogger,
  createMailer,
  InProcessEventBus,
  loadOrCreateJwtKeys,
  openEmbeddedPostgres,
  republishEvents,
  runService,
  type Clock,
  type ConsumerDefinition,
  type Logger,
  type RunningService,
} from '@ques/kit';

export interface EmbeddedOptions {
  port?: number;
  host?: string;
  /** Where the database, keys and mail live. In memory (and throwaway keys) when null. */
  dataDir?: string | null;
  log?: Logger;
  logLevel?: string;
  publicOrigin?: string;
  webDist?: string;
  clock?: Clock;
  authRateLimitPerMinute?: number;
  /**
   * Settings read from the environment (main.ts): `STRIPE_SECRET_KEY` + `STRIPE_WEBHOOK_SECRET`, `SUPPORT_INBOX`,
   * `OPERATOR_EMAILS` (verified addresses made platform operators, issue 18).
   */
  env?: Record<string, string | undefined>;
  /** Tests only: consumers a service runs besides its own (one that fails on purpose parks a dead letter). */
  testConsumers?: { questions?: ConsumerDefinition<QuestionsDB>[] };
}

export interface EmbeddedProduct {
  url: string;
  bff: FastifyInstance;
  services: {
    identity: RunningService<IdentityDB, IdentityConfig, IdentityParts>;
    questions: RunningService<QuestionsDB, QuestionsConfig, QuestionsParts>;
    payments: RunningService<PaymentsDB, PaymentsConfig, PaymentsParts, PaymentsOverrides>;
    support: RunningService<SupportDB, SupportConfig, SupportParts>;
  };
  bus: InProcessEventBus;
  /** Where e-mails are written as .eml files. */
  mailDir: string;
  stop(): Promise<void>;
}

/**
 * The whole product in one process: one embedded PGlite (a schema per service), the in-process bus, every service on
 * a loopback port, and the BFF on `port`. Same service code as the distributed topology.
 */
export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<EmbeddedProduct> {
  const log = opts.log ?? createLogger('ques', opts.logLevel ?? 'info');
  const dataDir = opts.dataDir === undefined ? resolve('.data') : opts.dataDir;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // The identity CLI (grant-operator…) refuses to open the PGlite folder while this process serves it.
  const pidFile = dataDir ? join(dataDir, EMBEDDED_PID_FILE) : null;
  if (pidFile) writeFileSync(pidFile, String(process.pid));
  const keys = loadOrCreateJwtKeys(dataDir ? join(dataDir, 'keys') : join(process.env.TMPDIR ?? '/tmp', `ques-keys-${process.pid}-${Date.now()}`));
  const pg = await openEmbeddedPostgres(dataDir ? join(dataDir, 'pg') : undefined);
  const bus = new InProcessEventBus({ log });
  const port = opts.port ?? 3000;
  const publicOrigin = opts.publicOrigin ?? `http://localhost:${port}`;
  const mailDir = dataDir ? join(dataDir, 'mail') : join(process.env.TMPDIR ?? '/tmp', `ques-mail-${process.pid}-${Date.now()}`);
  const mailer = createMailer({ from: 'Ques <no-reply@ques.app>', log, mailDir });
  const env = opts.env ?? {};
  // Every service through the same runService as its own process, on the shared PGlite (its own schema), the
  // in-process bus, one mailer and one clock; each on a free loopback port behind the BFF.
  const shared = { bus, mailer, log, clock: opts.clock, port: 0, host: '127.0.0.1' };
  const common = { JWT_PUBLIC_KEY: keys.publicKey, PUBLIC_ORIGIN: publicOrigin };
  // The internal calls (`/internal/*`: payments → questions, identity's export → questions and payments) carry a
  // shared token in this mode too (issue 33): a fresh one per start, unless the environment gives one.
  const internal = { INTERNAL_API_TOKEN: env.INTERNAL_API_TOKEN ?? randomBytes(24).toString('base64url') };

  // Questions reads identity's events: it subscribes first so the in-process bus hands it every one of them.
  const questions = await runService(questionsService, {
    ...shared,
    config: loadQuestionsConfig({ ...common, ...internal }),
    database: connectEmbedded<QuestionsDB>(pg, 'questions'),
    extraConsumers: opts.testConsumers?.questions,
  });

  // Payments reads identity's and questions' events too. Test-mode payment pages live on the BFF's origin, known
  // once it listens (port 0 in tests).
  let pagesBase = publicOrigin;
  const stripe = !!env.STRIPE_SECRET_KEY && !!env.STRIPE_WEBHOOK_SECRET;
  const payments = await runService(paymentsService, {
    ...shared,
    config: loadPaymentsConfig({
      ...common,
      ...internal,
      ...(stripe ? { STRIPE_SECRET_KEY: env.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: env.STRIPE_WEBHOOK_SECRET } : {}),
    }),
    database: connectEmbedded<PaymentsDB>(pg, 'payments'),
    overrides: {
      questions: new HttpQuestionsClient({ baseUrl: questions.url, internalToken: internal.INTERNAL_API_TOKEN }),
      ...(stripe ? {} : { provider: { kind: 'test' as const, pagesBaseUrl: () => pagesBase } }),
    },
  });

  const identity = await runService(identityService, {
    ...shared,
    config: loadIdentityConfig({
      ...common,
      ...internal,
      JWT_PRIVATE_KEY: keys.privateKey,
      OPERATOR_EMAILS: env.OPERATOR_EMAILS ?? '',
      // The data export (issue 15) reads the other services' parts over their internal calls.
      QUESTIONS_URL: questions.url,
      PAYMENTS_URL: payments.url,
    }),
    database: connectEmbedded<IdentityDB>(pg, 'identity'),
  });
  // A data folder from before questions existed: replay identity's events once to fill its recipients.
  const seen = await questions.ctx.db.selectFrom('processed_events').select('event_id').where('consumer', '=', 'questions--recipients').limit(1).executeTakeFirst();
  const paymentsSeen = await payments.ctx.db.selectFrom('processed_events').select('event_id').where('consumer', '=', 'payments--users').limit(1).executeTakeFirst();
  if (!seen || !paymentsSeen) await republishEvents(identity.ctx.store, bus, { from: 0 }, log);
  const support = await runService(supportService, {
    ...shared,
    config: loadSupportConfig({
      ...common,
      CAPTCHA_HMAC_KEY: loadOrCreateCaptchaKey(dataDir ? join(dataDir, 'keys') : null),
      SUPPORT_INBOX: env.SUPPORT_INBOX,
      TRUST_PROXY: 'loopback',
    }),
    database: connectEmbedded<SupportDB>(pg, 'support'),
  });
  // A data folder from before support kept its requesters' addresses (issue 18): replay identity's events once more
  // (the other consumers skip what they already applied).
  const contactsSeen = await support.ctx.db.selectFrom('processed_events').select('event_id').where('consumer', '=', 'support--contacts').limit(1).executeTakeFirst();
  const anyUser = await identity.ctx.db.selectFrom('events').select('event_id').limit(1).executeTakeFirst();
  if (!contactsSeen && anyUser) await republishEvents(identity.ctx.store, bus, { from: 0 }, log);

  const bff = await buildBff({
    log,
    upstreams: { identity: identity.url, questions: questions.url, payments: payments.url, support: support.url },
    // The BFF verifies what identity signs.
    jwt: { publicKey: keys.publicKey, issuer: identity.ctx.config.JWT_ISSUER, audience: identity.ctx.config.JWT_AUDIENCE },
    publicOrigin,
    webDist: opts.webDist ?? fileURLToPath(new URL('../../../web/dist', import.meta.url)),
    authRateLimitPerMinute: opts.authRateLimitPerMinute,
    // Rendered public pages are dropped as soon as identity or questions publish a change.
    events: bus,
  });
  const address = await bff.listen({ port, host: opts.host ?? '127.0.0.1' });
  const url = port === 0 ? address : publicOrigin;
  pagesBase = url;

  return {
    url,
    bff,
    services: { identity, questions, payments, support },
    bus,
    mailDir,
    async stop() {
      await bff.close();
      await identity.stop();
      await questions.stop();
      await payments.stop();
      await support.stop();
      await bus.close();
      mailer.close();
      await pg.pglite.close();
      if (pidFile) rmSync(pidFile, { force: true });
    },
  };
}
