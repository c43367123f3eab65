import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Context } from '@ques/contracts';
import type { EventBus, Subscription } from '../bus/bus.js';
import { NatsEventBus } from '../bus/nats-bus.js';
import { connectPostgres, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { idempotencyView, revocationsView, type IdempotencyTables, type KitTables } from '../db/schema.js';
import { startConsumer, type ConsumerDefinition } from '../events/consumer.js';
import { EventStore } from '../events/event-store.js';
import { OutboxRelay } from '../events/outbox-relay.js';
import { systemClock } from '../events/types.js';
import { registerJwt, useRevocationCheck } from '../http/auth.js';
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
import { createMailer, type Mailer } from '../mail/mailer.js';
import { Scheduler } from '../scheduler/scheduler.js';
import { operatorClaimsGuard, registerStreamOps } from '../ops/console.js';
import { waitUntilReachable } from './startup.js';

export type * from './definition.js';
import type {
  RunningService,
  RunOptions,
  ServiceConfig,
  ServiceContext,
  ServiceDefinition,
} from './definition.js';

/** What one `runService` call opened itself (closed at shutdown) and started (stopped at shutdown), in start order. */
interface Held<DB extends KitTables> {
  owned: { database?: Database<DB>; bus?: EventBus; mailer?: Mailer };
  started: {
    app?: HttpApp;
    subscriptions: Subscription[];
    scheduler?: Scheduler<DB>;
    relay?: OutboxRelay<DB>;
    metricsServer?: { close(): Promise<void> };
  };
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
  const held: Held<DB> = { owned: {}, started: { subscriptions: [] } };
  const shutDown = shutdownSteps(held, log, options.shutdownGraceMs ?? 8_000);
  try {
    const infra = await connect(def, config, options, log, held);
    const built = await build(def, config, options, log, infra, held);
    const { url, metricsUrl } = await start(def, config, options, log, built, held);
    log.info({ url, metricsUrl }, `${def.name} listening`);
    let stopping: Promise<void> | null = null;
    const running: RunningService<DB, C, P, O> = {
      name: def.name,
      url,
      app: built.app,
      parts: built.parts,
      ctx: built.ctx,
      relay: held.started.relay!,
      metrics: built.metrics,
      metricsUrl,
      stop() {
        stopping ??= shutDown();
        return stopping;
      },
    };
    if (options.signals ?? (held.owned.database !== undefined && held.owned.bus !== undefined))
      onShutdownSignal(log, () => running.stop());
    return running;
  } catch (err) {
    await shutDown().catch((cleanupErr: unknown) =>
      log.warn({ err: cleanupErr }, 'cleanup after a failed start failed'),
    );
    throw err;
  }
}

/** Postgres, the bus and the mailer: the caller's when given, else opened here (and owned, so closed at shutdown). */
async function connect<DB extends KitTables & IdempotencyTables, C extends ServiceConfig, P, O>(
  def: ServiceDefinition<DB, C, P, O>,
  config: C,
  options: RunOptions<DB, C, O>,
  log: Logger,
  { owned }: Held<DB>,
): Promise<{ database: Database<DB>; bus: EventBus; mailer: Mailer | null }> {
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
      () =>
        NatsEventBus.connect({
          servers,
          name: def.name,
          namespace,
          log,
          streamReplicas: config.NATS_STREAM_REPLICAS ?? 1,
        }),
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
  return { database, bus, mailer };
}

/** What `build` hands to `start`. */
interface Built<DB extends KitTables, C extends ServiceConfig, P, O> {
  ctx: ServiceContext<DB, C, O>;
  parts: P;
  app: HttpApp;
  metrics: Metrics;
  consumers: ConsumerDefinition<DB>[];
  streams: Context[];
  hasJobs: boolean;
}

/** The service's parts, built once, and its HTTP app with every route, guard and hook registered (not listening yet). */
async function build<DB extends KitTables & IdempotencyTables, C extends ServiceConfig, P, O>(
  def: ServiceDefinition<DB, C, P, O>,
  config: C,
  options: RunOptions<DB, C, O>,
  log: Logger,
  { database, bus, mailer }: { database: Database<DB>; bus: EventBus; mailer: Mailer | null },
  { started }: Held<DB>,
): Promise<Built<DB, C, P, O>> {
  const clock = options.clock ?? systemClock;
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

  const app = createHttpApp({
    name: def.name,
    log,
    bodyLimit: def.bodyLimit,
    // Ready means "can serve": the database answers. A bus outage is *degraded*, not unready — the outbox keeps
    // every event and the relay publishes them when NATS is back (ADR 0027).
    ready: async () => {
      await sql`SELECT 1`.execute(ctx.db);
    },
    degraded: () => (bus.isHealthy() ? [] : ['event bus disconnected: events wait in the outbox']),
  });
  const metrics = createMetrics(def.name, {
    defaultMetrics: options.metricsPort !== undefined || config.METRICS_PORT !== undefined,
  });
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
  const streams = [def.name, ...(def.consumes ?? []), ...(readsRevocations ? [REVOCATIONS_CONTEXT] : [])];
  // The operator console's stream tools: the admin CLI's functions behind the operator guard (ADR 0032).
  registerStreamOps(app, {
    service: def.name,
    database,
    store,
    bus,
    consumers,
    consumes: streams.slice(1),
    guard: ctx.operatorGuard,
    log,
  });
  await app.ready();
  return { ctx, parts, app, metrics, consumers, streams, hasJobs: Object.keys(jobs).length > 0 };
}

/** The streams, the outbox relay, the consumers and the scheduler; then the HTTP and metrics servers listen. */
async function start<DB extends KitTables & IdempotencyTables, C extends ServiceConfig, P, O>(
  def: ServiceDefinition<DB, C, P, O>,
  config: C,
  options: RunOptions<DB, C, O>,
  log: Logger,
  built: Built<DB, C, P, O>,
  { started }: Held<DB>,
): Promise<{ url: string; metricsUrl: string | null }> {
  const { database, bus } = built.ctx;
  await bus.ensureStreams(built.streams);
  const relay = new OutboxRelay<DB>({ database, bus, log, pollIntervalMs: options.pollIntervalMs });
  started.relay = relay;
  await relay.start();
  for (const consumer of built.consumers)
    started.subscriptions.push(await startConsumer(bus, database, log, consumer));
  if (built.hasJobs) await started.scheduler?.start();

  const url = await built.app.listen({
    port: options.port ?? config.PORT,
    host: options.host ?? config.HOST,
  });
  const metricsPort = options.metricsPort ?? config.METRICS_PORT;
  if (metricsPort === undefined) return { url, metricsUrl: null };
  const served = await serveMetrics(built.metrics, {
    port: metricsPort,
    ...(config.METRICS_HOST ? { host: config.METRICS_HOST } : {}),
    token: config.METRICS_TOKEN,
  });
  started.metricsServer = served;
  return { url, metricsUrl: served.url };
}

/**
 * The shutdown, in the decided order: stop accepting (in-flight requests get `graceMs`), then metrics, consumers, the
 * scheduler and the relay, then close what this call opened — the bus, the mailer, the pool. Each step is bounded: a
 * step that hangs is logged by name and passed over, so the process still exits.
 */
function shutdownSteps<DB extends KitTables>({ owned, started }: Held<DB>, log: Logger, graceMs: number) {
  const step = async (
    name: string,
    work: Promise<unknown> | undefined,
    limitMs: number,
    onLate?: () => void,
  ) => {
    if (!work) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limitMs);
      timer.unref();
    });
    const outcome = await Promise.race([work.then(() => 'done' as const), late]).finally(() =>
      clearTimeout(timer),
    );
    if (outcome === 'late') {
      log.warn({ step: name, limitMs }, 'shutdown step did not finish in time; going on');
      onLate?.();
    }
  };
  return async () => {
    // In-flight requests get the grace period, then their connections are closed (a hung call must not keep us up).
    const app = started.app;
    await step('http', app?.close(), graceMs, () => app?.server.closeAllConnections());
    await step('metrics', started.metricsServer?.close(), 1_000);
    await step('consumers', Promise.all(started.subscriptions.map((s) => s.stop())), 3_000);
    await step('scheduler', started.scheduler?.stop(), 3_000);
    await step('relay', started.relay?.stop(), 3_000);
    await step(
      'bus',
      owned.bus?.close().catch((err: unknown) => log.warn({ err }, 'closing the bus failed')),
      3_000,
    );
    owned.mailer?.close();
    await step(
      'database',
      owned.database?.close().catch((err: unknown) => log.warn({ err }, 'closing the database failed')),
      3_000,
    );
  };
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
