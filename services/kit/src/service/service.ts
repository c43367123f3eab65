import { sql, type Kysely, type Migration } from 'kysely';
import type { Logger } from 'pino';
import type { Context } from '@ques/contracts';
import type { EventBus, Subscription } from '../bus/bus.js';
import { NatsEventBus } from '../bus/nats-bus.js';
import type { ServiceEnv } from '../config/config.js';
import { connectPostgres, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { idempotencyView, revocationsView, type IdempotencyTables, type KitTables } from '../db/schema.js';
import { startConsumer, type ConsumerDefinition } from '../events/consumer.js';
import { EventStore } from '../events/event-store.js';
import { OutboxRelay } from '../events/outbox-relay.js';
import type { EventCipher } from '../events/personal-data.js';
import type { Projection } from '../events/projection.js';
import { systemClock, type Clock, type IntegrationMapper } from '../events/types.js';
import { registerJwt, useRevocationCheck, type JwtVerifyOptions } from '../http/auth.js';
import { createHttpApp, type HttpApp } from '../http/http-app.js';
import { registerIdempotency } from '../http/idempotency.js';
import {
  assertRevocationsTable,
  REVOCATIONS_CONTEXT,
  revocationsConsumer,
  watchRevokedSessions,
} from '../http/revocations.js';
import { createLogger } from '../logger.js';
import {
  createMetrics,
  instrumentHttp,
  registerBusMetrics,
  registerPipelineMetrics,
  serveMetrics,
  type Metrics,
} from '../metrics/metrics.js';
import { createMailer, type Mailer, type MailerOptions } from '../mail/mailer.js';
import { Scheduler, type JobHandler } from '../scheduler/scheduler.js';
import { operatorClaimsGuard, registerStreamOps, type OperatorGuard } from '../ops/console.js';
import { waitUntilReachable, type StartupRetryOptions } from './startup.js';

/** What every service's config has (its `config.ts` extends `ZServiceEnv`). */
export type ServiceConfig = ServiceEnv & { PORT: number };

/** What the service's parts are built from (and what routes, consumers and jobs get besides the parts). */
export interface ServiceContext<
  DB extends KitTables = KitTables,
  C extends ServiceConfig = ServiceConfig,
  O = object,
> {
  name: Context;
  config: C;
  database: Database<DB>;
  /** `database.db`: the service's typed Kysely. */
  db: Kysely<DB>;
  store: EventStore<DB>;
  bus: EventBus;
  log: Logger;
  clock: Clock;
  /** Present when the service sends mail (`mail` in its definition) or the caller gave one. */
  mailer: Mailer | null;
  /** Runs the definition's `jobs`; started after the service is built. */
  scheduler: Scheduler<DB>;
  /** Stand-ins the caller passed for parts the service would otherwise build from its config (tests, the launcher). */
  overrides: Partial<O>;
  /** Who may use the operator console's routes (ADR 0032); refuses everyone unless the caller gives one. */
  operatorGuard: OperatorGuard;
}

/**
 * One service, declared once: everything `runService` (a real process, the embedded launcher, tests) and the admin
 * CLI need. `DB` is the service's table interface, `C` its config, `P` the parts `build` makes once and routes,
 * consumers and jobs share, `O` what a caller may pass instead of what `build` would make.
 */
export interface ServiceDefinition<
  DB extends KitTables & IdempotencyTables,
  C extends ServiceConfig,
  P,
  O = object,
> {
  /** The bounded context: schema name, stream context and logger name. */
  name: Context;
  /** The service's config loader (its `config.ts`, the only reader of process.env). */
  config: () => C;
  /** Explicit and frozen (see the kit README); the kit's own tables are added before them. */
  migrations: Record<string, Migration>;
  /** Inline read models, updated in the append's transaction. */
  projections: Projection<DB>[];
  /** Which stored events leave the service, and as what. */
  toIntegration: IntegrationMapper;
  /** Seals personal fields in stored events (crypto-shredding, ADR 0010). */
  cipher?: EventCipher<DB>;
  /** Contexts whose streams this service's consumers read. */
  consumes?: Context[];
  /** Mail settings from the config; the kit builds (and closes) the mailer. */
  mail?: (config: C) => Omit<MailerOptions, 'log'>;
  /** JWT settings; default: verify with the config's `JWT_PUBLIC_KEY`, `JWT_ISSUER`, `JWT_AUDIENCE`. */
  jwt?: (config: C) => JwtVerifyOptions;
  /** Request body limit (default 256 kB). */
  bodyLimit?: number;
  /**
   * Identity keeps the sessions and checks them itself. Every other service refuses tokens of revoked sessions
   * through the kit's read model, fed by identity's `SessionsRevoked` (ADR 0017; needs `kitRevocationsMigration`).
   */
  ownsSessions?: boolean;
  /** Builds the service's parts once: read models, command handlers, providers. */
  build: (ctx: ServiceContext<DB, C, O>) => P | Promise<P>;
  routes: (app: HttpApp, parts: P, ctx: ServiceContext<DB, C, O>) => void | Promise<void>;
  consumers?: (parts: P, ctx: ServiceContext<DB, C, O>) => ConsumerDefinition<DB>[];
  jobs?: (parts: P, ctx: ServiceContext<DB, C, O>) => Record<string, JobHandler<DB>>;
  /** The service's own series (payments: captures and releases), added to the kit's on its metrics registry. */
  metrics?: (parts: P, ctx: ServiceContext<DB, C, O>, metrics: Metrics) => void;
}

export interface RunOptions<DB extends KitTables, C extends ServiceConfig, O> {
  /** Default: the definition's `config()` (environment variables). */
  config?: C;
  /** Injected infrastructure (the launcher's shared PGlite schema, a test database): used as is, never closed here. */
  database?: Database<DB>;
  /** Injected bus (in-process, or a test's namespaced NATS): used as is, never closed here. */
  bus?: EventBus;
  /** Injected mailer (never closed here); `null`: this instance sends no mail. */
  mailer?: Mailer | null;
  log?: Logger;
  clock?: Clock;
  /** Default: the config's PORT and HOST. 0 picks a free port. */
  port?: number;
  host?: string;
  /** Where `GET /metrics` is served (its own port, never the public one). Default: the config's METRICS_PORT; none when unset. */
  metricsPort?: number;
  /** Relay/scheduler polling, shortened in tests. */
  pollIntervalMs?: number;
  overrides?: Partial<O>;
  /** How long to wait for Postgres and NATS at start. */
  startup?: StartupRetryOptions;
  /** SIGINT/SIGTERM shut the process down. Default: true when the service connected its own infrastructure. */
  signals?: boolean;
  /** How long in-flight requests may finish at shutdown before their connections are closed. Default 8 s. */
  shutdownGraceMs?: number;
  /** Who may use the operator console's routes (ADR 0032). */
  operatorGuard?: OperatorGuard;
  /** Consumers run besides the definition's (tests: a consumer that fails on purpose to park a dead letter). */
  extraConsumers?: ConsumerDefinition<DB>[];
}

export interface RunningService<
  DB extends KitTables = KitTables,
  C extends ServiceConfig = ServiceConfig,
  P = unknown,
  O = object,
> {
  name: Context;
  /** Where it listens. */
  url: string;
  app: HttpApp;
  parts: P;
  ctx: ServiceContext<DB, C, O>;
  relay: OutboxRelay<DB>;
  metrics: Metrics;
  /** Where `GET /metrics` answers, when a metrics port was given. */
  metricsUrl: string | null;
  /**
   * Graceful, in this order: stop accepting (in-flight requests finish), stop consumers, the scheduler and the relay,
   * then close what this service opened itself — drain the bus, close the mailer, close the pool.
   */
  stop(): Promise<void>;
}

/**
 * Starts a service: config, logger, Postgres and the bus (waiting for them with backoff), migrations, the parts built
 * once, routes, consumers, jobs, the outbox relay; then listens. `main.ts` is `await runService(definition)`; the
 * embedded launcher and tests pass the infrastructure they share instead.
 */
export async function runService<DB extends KitTables & IdempotencyTables, C extends ServiceConfig, P, O>(
  def: ServiceDefinition<DB, C, P, O>,
  options: RunOptions<DB, C, O> = {},
): Promise<RunningService<DB, C, P, O>> {
  const config = options.config ?? def.config();
  const log = (options.log ?? createLogger(def.name, config.LOG_LEVEL)).child({ service: def.name });
  const clock = options.clock ?? systemClock;
  // What this call opened or started, in start order; shutdown (or a failed start) undoes it in the decided order.
  const owned: { database?: Database<DB>; bus?: EventBus; mailer?: Mailer } = {};
  const started: {
    app?: HttpApp;
    subscriptions: Subscription[];
    scheduler?: Scheduler<DB>;
    relay?: OutboxRelay<DB>;
    metricsServer?: { close(): Promise<void> };
  } = { subscriptions: [] };
  const graceMs = options.shutdownGraceMs ?? 8_000;
  /** One shutdown step, bounded: a step that hangs is logged by name and passed over, so the process still exits. */
  const step = async (name: string, work: Promise<unknown> | undefined, limitMs: number, onLate?: () => void) => {
    if (!work) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limitMs);
      timer.unref();
    });
    const outcome = await Promise.race([work.then(() => 'done' as const), late]).finally(() => clearTimeout(timer));
    if (outcome === 'late') {
      log.warn({ step: name, limitMs }, 'shutdown step did not finish in time; going on');
      onLate?.();
    }
  };
  const shutDown = async () => {
    // In-flight requests get the grace period, then their connections are closed (a hung call must not keep us up).
    const app = started.app;
    await step('http', app?.close(), graceMs, () => app?.server.closeAllConnections());
    await step('metrics', started.metricsServer?.close(), 1_000);
    await step('consumers', Promise.all(started.subscriptions.map((s) => s.stop())), 3_000);
    await step('scheduler', started.scheduler?.stop(), 3_000);
    await step('relay', started.relay?.stop(), 3_000);
    await step('bus', owned.bus?.close().catch((err: unknown) => log.warn({ err }, 'closing the bus failed')), 3_000);
    owned.mailer?.close();
    await step(
      'database',
      owned.database?.close().catch((err: unknown) => log.warn({ err }, 'closing the database failed')),
      3_000,
    );
  };

  try {
    let database = options.database;
    if (!database) {
      if (!config.DATABASE_URL) throw new Error('Invalid configuration:\n  DATABASE_URL: required');
      const connected = connectPostgres<DB>({
        connectionString: config.DATABASE_URL,
        schema: def.name,
        prepareStatements: config.PG_PREPARE_STATEMENTS !== 'false',
      });
      owned.database = connected;
      await waitUntilReachable('Postgres', () => sql`SELECT 1`.execute(connected.db), log, options.startup);
      database = connected;
    }
    let bus = options.bus;
    if (!bus) {
      const servers = config.NATS_URL;
      if (!servers) throw new Error('Invalid configuration:\n  NATS_URL: required');
      const namespace = config.BUS_NAMESPACE || undefined;
      bus = await waitUntilReachable(
        'NATS',
        () => NatsEventBus.connect({ servers, name: def.name, namespace, log, streamReplicas: config.NATS_STREAM_REPLICAS ?? 1 }),
        log,
        options.startup,
      );
      owned.bus = bus;
    }
    let mailer = options.mailer;
    if (mailer === undefined) {
      mailer = def.mail ? createMailer({ ...def.mail(config), log }) : null;
      if (mailer) owned.mailer = mailer;
    }
    await migrate(database, def.migrations);

    const store = new EventStore<DB>({
      database,
      context: def.name,
      projections: def.projections,
      toIntegration: def.toIntegration,
      clock,
      cipher: def.cipher,
    });
    const scheduler = new Scheduler<DB>({
      database,
      log,
      handlers: {},
      clock,
      pollIntervalMs: options.pollIntervalMs,
    });
    started.scheduler = scheduler;
    const ctx: ServiceContext<DB, C, O> = {
      name: def.name,
      config,
      database,
      db: database.db,
      store,
      bus,
      log,
      clock,
      mailer,
      scheduler,
      overrides: options.overrides ?? {},
      operatorGuard: options.operatorGuard ?? operatorClaimsGuard,
    };
    const parts = await def.build(ctx);
    const jobs = def.jobs?.(parts, ctx) ?? {};
    scheduler.handle(jobs);

    const ready = bus;
    const app = createHttpApp({
      name: def.name,
      log,
      bodyLimit: def.bodyLimit,
      // Ready means "can serve": the database answers. A bus outage is *degraded*, not unready — the outbox keeps
      // every event and the relay publishes them when NATS is back (ADR 0027).
      ready: async () => {
        await sql`SELECT 1`.execute(ctx.db);
      },
      degraded: () => (ready.isHealthy() ? [] : ['event bus disconnected: events wait in the outbox']),
    });
    const metrics = createMetrics(def.name, { defaultMetrics: options.metricsPort !== undefined || config.METRICS_PORT !== undefined });
    instrumentHttp(app, metrics);
    registerBusMetrics(metrics, bus);
    registerPipelineMetrics(metrics, ctx.db);
    def.metrics?.(parts, ctx, metrics);
    started.app = app;
    await registerJwt(
      app,
      def.jwt?.(config) ?? {
        publicKey: config.JWT_PUBLIC_KEY,
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
      },
    );
    // Idempotency-Key for routes that opt in (ADR 0016); revoked sessions refused on every service but identity (ADR 0017).
    registerIdempotency(app, { database: { db: idempotencyView(database.db) }, log, clock });
    const readsRevocations = !def.ownsSessions;
    if (readsRevocations) {
      await assertRevocationsTable(database.db, def.name);
      const { schema } = database;
      const revoked = watchRevokedSessions(app, {
        database: {
          schema,
          listen: (channel, onNotify) => ctx.database.listen(channel, onNotify),
          db: revocationsView(database.db),
        },
        log,
      });
      useRevocationCheck(app, revoked);
    }
    await def.routes(app, parts, ctx);
    // Every token-verifying service also keeps identity's revocations (its durable is named after its schema).
    const consumers = [
      ...(def.consumers?.(parts, ctx) ?? []),
      ...(options.extraConsumers ?? []),
      ...(readsRevocations ? [revocationsConsumer<DB>(database.schema, database, clock)] : []),
    ];
    // The operator console's stream tools: the admin CLI's functions behind the operator guard (ADR 0032).
    registerStreamOps(app, {
      service: def.name,
      database,
      store,
      bus,
      consumers,
      consumes: [...(def.consumes ?? []), ...(readsRevocations ? [REVOCATIONS_CONTEXT] : [])],
      guard: ctx.operatorGuard,
      log,
    });
    await app.ready();

    await bus.ensureStreams([
      def.name,
      ...(def.consumes ?? []),
      ...(readsRevocations ? [REVOCATIONS_CONTEXT] : []),
    ]);
    const relay = new OutboxRelay<DB>({ database, bus, log, pollIntervalMs: options.pollIntervalMs });
    started.relay = relay;
    await relay.start();
    for (const consumer of consumers)
      started.subscriptions.push(await startConsumer(bus, database, log, consumer));
    if (Object.keys(jobs).length > 0) await scheduler.start();

    const url = await app.listen({ port: options.port ?? config.PORT, host: options.host ?? config.HOST });
    const metricsPort = options.metricsPort ?? config.METRICS_PORT;
    let metricsUrl: string | null = null;
    if (metricsPort !== undefined) {
      const served = await serveMetrics(metrics, { port: metricsPort, ...(config.METRICS_HOST ? { host: config.METRICS_HOST } : {}), token: config.METRICS_TOKEN });
      started.metricsServer = served;
      metricsUrl = served.url;
    }
    log.info({ url, metricsUrl }, `${def.name} listening`);

    let stopping: Promise<void> | null = null;
    const running: RunningService<DB, C, P, O> = {
      name: def.name,
      url,
      app,
      parts,
      ctx,
      relay,
      metrics,
      metricsUrl,
      stop() {
        stopping ??= shutDown();
        return stopping;
      },
    };
    if (options.signals ?? (owned.database !== undefined && owned.bus !== undefined))
      onShutdownSignal(log, () => running.stop());
    return running;
  } catch (err) {
    await shutDown().catch((cleanupErr: unknown) =>
      log.warn({ err: cleanupErr }, 'cleanup after a failed start failed'),
    );
    throw err;
  }
}

/** Wires SIGINT/SIGTERM to an orderly shutdown; a second signal forces exit. */
export function onShutdownSignal(log: Logger, shutdown: () => Promise<void>): void {
  let shuttingDown = false;
  const handler = (signal: string) => {
    if (shuttingDown) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    log.info({ signal }, 'shutting down');
    shutdown()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}
