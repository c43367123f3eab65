import { type Kysely, type Migration } from 'kysely';
import type { Logger } from 'pino';
import type { Context } from '@ques/contracts';
import type { EventBus } from '../bus/bus.js';
import type { ServiceEnv } from '../config/config.js';
import { type Database } from '../db/database.js';
import { type IdempotencyTables, type KitTables } from '../db/schema.js';
import { type ConsumerDefinition } from '../events/consumer.js';
import { EventStore } from '../events/event-store.js';
import { OutboxRelay } from '../events/outbox-relay.js';
import type { EventCipher } from '../events/personal-data.js';
import type { Projection } from '../events/projection.js';
import { type Clock, type IntegrationMapper } from '../events/types.js';
import { type JwtVerifyOptions } from '../http/auth.js';
import { type HttpApp } from '../http/http-app.js';
import { type Metrics } from '../metrics/metrics.js';
import { type Mailer, type MailerOptions } from '../mail/mailer.js';
import { Scheduler, type JobHandler } from '../scheduler/scheduler.js';
import { type OperatorGuard } from '../ops/console.js';
import { type StartupRetryOptions } from './startup.js';

// A service's definition and what running it returns; `runService` (./service.ts) starts one.

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
