import type { FastifyInstance } from 'fastify';
import { sql, type Migration } from 'kysely';
import type { Logger } from 'pino';
import type { Context } from '@ques/contracts';
import type { EventBus, Subscription } from './bus/bus.js';
import type { Database } from './db/database.js';
import { migrate } from './db/migrations.js';
import { startConsumer, type ConsumerDefinition } from './events/consumer.js';
import { EventStore } from './events/event-store.js';
import type { EventCipher } from './events/personal-data.js';
import { OutboxRelay } from './events/outbox-relay.js';
import { systemClock, type Clock, type IntegrationMapper, type Projection } from './events/types.js';
import { registerJwt, useRevocationCheck, type JwtVerifyOptions } from './http/auth.js';
import { createHttpApp } from './http/http-app.js';
import { registerIdempotency } from './http/idempotency.js';
import { assertRevocationsTable, REVOCATIONS_CONTEXT, revocationsConsumer, watchRevokedSessions } from './http/revocations.js';
import { Scheduler, type JobHandler } from './scheduler/scheduler.js';

/** What every service is given from outside; main.ts builds it for real infrastructure, the launcher for embedded. */
export interface ServiceDeps {
  database: Database;
  bus: EventBus;
  log: Logger;
  jwt: JwtVerifyOptions;
  clock?: Clock;
  /** Relay/scheduler polling, shortened in tests. */
  pollIntervalMs?: number;
}

export interface ServiceContext {
  store: EventStore;
  database: Database;
  bus: EventBus;
  log: Logger;
  clock: Clock;
  scheduler: Scheduler | null;
}

export interface ServiceDefinition<Extra> {
  name: string;
  context: Context;
  migrations: Record<string, Migration>;
  projections: Projection[];
  toIntegration: IntegrationMapper;
  /** Seals personal fields in stored events (crypto-shredding, ADR 0010). */
  cipher?: EventCipher;
  /** Contexts whose streams this service consumes. */
  consumes?: Context[];
  consumers?: (ctx: ServiceContext) => ConsumerDefinition[];
  jobs?: (ctx: ServiceContext) => Record<string, JobHandler>;
  /** Builds service-specific things (repositories, password hasher…) and registers routes. */
  setup: (app: FastifyInstance, ctx: ServiceContext) => Promise<Extra>;
  /** Size of the request body limit (e.g. larger for uploads). */
  bodyLimit?: number;
  /**
   * Identity keeps the sessions and checks them itself. Every other service refuses tokens of revoked sessions
   * through the kit's read model, fed by identity's `SessionsRevoked` (ADR 0017; needs `kitRevocationsMigration`).
   */
  ownsSessions?: boolean;
}

export interface ServiceRuntime<Extra = unknown> {
  name: string;
  app: FastifyInstance;
  ctx: ServiceContext;
  relay: OutboxRelay;
  extra: Extra;
  /** Listens and returns the base URL. */
  listen(port: number, host?: string): Promise<string>;
  /** Graceful: stop accepting, finish in-flight requests, stop consumers, scheduler and relay. Leaves db and bus open. */
  stop(): Promise<void>;
}

export async function startService<Extra>(def: ServiceDefinition<Extra>, deps: ServiceDeps): Promise<ServiceRuntime<Extra>> {
  const clock = deps.clock ?? systemClock;
  const log = deps.log.child({ service: def.name });
  await migrate(deps.database, def.migrations);

  const store = new EventStore({
    database: deps.database,
    context: def.context,
    projections: def.projections,
    toIntegration: def.toIntegration,
    clock,
    cipher: def.cipher,
  });
  const partialCtx: ServiceContext = { store, database: deps.database, bus: deps.bus, log, clock, scheduler: null };
  const jobs = def.jobs?.(partialCtx);
  const scheduler = jobs
    ? new Scheduler({ database: deps.database, log, handlers: jobs, clock, pollIntervalMs: deps.pollIntervalMs })
    : null;
  const ctx: ServiceContext = { ...partialCtx, scheduler };

  const app = createHttpApp({
    name: def.name,
    log,
    bodyLimit: def.bodyLimit,
    ready: async () => {
      await sql`SELECT 1`.execute(deps.database.db);
      if (!deps.bus.isHealthy()) throw new Error('event bus disconnected');
    },
  });
  await registerJwt(app, deps.jwt);
  // Issue 12: Idempotency-Key for routes that opt in (ADR 0016); revoked sessions refused on every service (ADR 0017).
  registerIdempotency(app, { database: deps.database, log, clock });
  const readsRevocations = !def.ownsSessions;
  if (readsRevocations) {
    await assertRevocationsTable(deps.database.db, def.name);
    useRevocationCheck(app, watchRevokedSessions(app, { database: deps.database, log }));
  }
  const extra = await def.setup(app, ctx);
  await app.ready();

  await deps.bus.ensureStreams([def.context, ...(def.consumes ?? []), ...(readsRevocations ? [REVOCATIONS_CONTEXT] : [])]);
  const relay = new OutboxRelay({ database: deps.database, bus: deps.bus, log, pollIntervalMs: deps.pollIntervalMs });
  await relay.start();
  const subscriptions: Subscription[] = [];
  for (const consumer of [...(def.consumers?.(ctx) ?? []), ...(readsRevocations ? [revocationsConsumer(def.name, deps.database, clock)] : [])]) {
    subscriptions.push(await startConsumer(deps.bus, deps.database, log, consumer));
  }
  scheduler?.start();

  return {
    name: def.name,
    app,
    ctx,
    relay,
    extra,
    async listen(port, host = '127.0.0.1') {
      return app.listen({ port, host });
    },
    async stop() {
      await app.close();
      await Promise.all(subscriptions.map((s) => s.stop()));
      await scheduler?.stop();
      await relay.stop();
    },
  };
}

/** Wires SIGINT/SIGTERM to an orderly shutdown; a second signal forces exit. */
export function onShutdownSignal(log: Logger, shutdown: () => Promise<void>): void {
  let shuttingDown = false;
  const handler = (signal: string) => {
    if (shuttingDown) process.exit(1);
    shuttingDown = true;
    log.info({ signal }, 'shutting down');
    shutdown()
      .then(() => process.exit(0))
      .catch((err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}
