import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildBff } from '@ques/bff';
import { startIdentityService } from '@ques/identity';
import { HttpQuestionsClient, startPaymentsService } from '@ques/payments';
import { startQuestionsService } from '@ques/questions';
import { loadOrCreateCaptchaKey, startSupportService } from '@ques/support';
import {
  connectEmbedded,
  createLogger,
  createMailer,
  InProcessEventBus,
  loadOrCreateJwtKeys,
  openEmbeddedPostgres,
  republishEvents,
  type Clock,
  type Logger,
  type ServiceRuntime,
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
}

export interface EmbeddedProduct {
  url: string;
  bff: FastifyInstance;
  services: Record<string, ServiceRuntime<any>>;
  bus: InProcessEventBus;
  /** Where e-mails are written as .eml files. */
  mailDir: string;
  stop(): Promise<void>;
}

const JWT = { issuer: 'ques-identity', audience: 'ques' };

/**
 * The whole product in one process: one embedded PGlite (a schema per service), the in-process bus, every service on
 * a loopback port, and the BFF on `port`. Same service code as the distributed topology.
 */
export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<EmbeddedProduct> {
  const log = opts.log ?? createLogger('ques', opts.logLevel ?? 'info');
  const dataDir = opts.dataDir === undefined ? resolve('.data') : opts.dataDir;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const keys = loadOrCreateJwtKeys(dataDir ? join(dataDir, 'keys') : join(process.env.TMPDIR ?? '/tmp', `ques-keys-${process.pid}-${Date.now()}`));
  const pg = await openEmbeddedPostgres(dataDir ? join(dataDir, 'pg') : undefined);
  const bus = new InProcessEventBus({ log });
  const jwt = { publicKey: keys.publicKey, ...JWT };
  const port = opts.port ?? 3000;
  const publicOrigin = opts.publicOrigin ?? `http://localhost:${port}`;
  const mailDir = dataDir ? join(dataDir, 'mail') : join(process.env.TMPDIR ?? '/tmp', `ques-mail-${process.pid}-${Date.now()}`);
  const mailer = createMailer({ from: 'Ques <no-reply@ques.app>', log, mailDir });

  // Questions reads identity's events: it subscribes first so the in-process bus hands it every one of them.
  const questions = await startQuestionsService({ database: connectEmbedded(pg, 'questions'), bus, log, clock: opts.clock, jwt, mailer, publicOrigin });
  const questionsUrl = await questions.listen(0);

  // Payments reads identity's and questions' events too. Test-mode payment pages live on the BFF's origin, known
  // once it listens (port 0 in tests).
  let pagesBase = publicOrigin;
  const stripe =
    process.env.STRIPE_SECRET_KEY && process.env.STRIPE_WEBHOOK_SECRET
      ? { secretKey: process.env.STRIPE_SECRET_KEY, webhookSecret: process.env.STRIPE_WEBHOOK_SECRET }
      : null;
  const payments = await startPaymentsService({
    database: connectEmbedded(pg, 'payments'),
    bus,
    log,
    clock: opts.clock,
    jwt,
    provider: stripe ? { kind: 'stripe', options: stripe } : { kind: 'test', pagesBaseUrl: () => pagesBase },
    questions: new HttpQuestionsClient({ baseUrl: questionsUrl }),
    publicOrigin,
  });
  const paymentsUrl = await payments.listen(0);

  const identity = await startIdentityService({
    database: connectEmbedded(pg, 'identity'),
    bus,
    log,
    clock: opts.clock,
    jwt: { ...jwt, privateKey: keys.privateKey },
  }, { publicOrigin, mailer });
  const identityUrl = await identity.listen(0);
  // A data folder from before questions existed: replay identity's events once to fill its recipients.
  const seen = await questions.ctx.database.db.selectFrom('processed_events').select('event_id').where('consumer', '=', 'questions--recipients').limit(1).executeTakeFirst();
  const paymentsSeen = await payments.ctx.database.db.selectFrom('processed_events').select('event_id').where('consumer', '=', 'payments--users').limit(1).executeTakeFirst();
  if (!seen || !paymentsSeen) await republishEvents(identity.ctx.store, bus, { from: 0 }, log);
  const support = await startSupportService({
    database: connectEmbedded(pg, 'support'),
    bus,
    log,
    clock: opts.clock,
    jwt,
    support: {
      captchaHmacKey: loadOrCreateCaptchaKey(dataDir ? join(dataDir, 'keys') : null),
      inbox: process.env.SUPPORT_INBOX ?? 'support@ques.localhost',
      mailer,
      trustProxy: 'loopback',
    },
  });
  const supportUrl = await support.listen(0);

  const bff = await buildBff({
    log,
    upstreams: { identity: identityUrl, questions: questionsUrl, payments: paymentsUrl, support: supportUrl },
    jwt,
    publicOrigin,
    webDist: opts.webDist ?? fileURLToPath(new URL('../../../web/dist', import.meta.url)),
    authRateLimitPerMinute: opts.authRateLimitPerMinute,
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
    },
  };
}
