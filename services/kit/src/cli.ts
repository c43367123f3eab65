import { parseArgs } from 'node:util';
import pino from 'pino';
import { z } from 'zod';
import { InProcessEventBus } from './bus/in-process-bus.js';
import { NatsEventBus } from './bus/nats-bus.js';
import { loadConfig, ZServiceEnv } from './config/config.js';
import { connectPostgres, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import type { IdempotencyTables, KitTables } from './db/schema.js';
import type { ConsumerDefinition } from './events/consumer.js';
import { EventStore } from './events/event-store.js';
import { rebuildProjections, republishEvents } from './events/replay.js';
import { systemClock } from './events/types.js';
import { REVOCATIONS_CONTEXT, revocationsConsumer } from './http/revocations.js';
import { createLogger } from './logger.js';
import {
  dropDeadLetter,
  dryRunRebuild,
  listDeadLetters,
  operatorName,
  recordOperatorAction,
  retryAllDeadLetters,
  retryDeadLetter,
  serviceStatus,
} from './ops/ops.js';
import { Scheduler } from './scheduler/scheduler.js';
import { refuseEveryone } from './ops/console.js';
import type { ServiceConfig, ServiceContext, ServiceDefinition } from './service/service.js';

const USAGE = `usage: <service>-admin <command> [--operator NAME]
  migrate                               apply pending migrations
  status                                stream sequences, consumer lag, outbox backlog, dead letters, last rebuild
  dead-letters list                     parked (poison) messages
  dead-letters retry ID | --all         run a parked message through its consumer again (exactly once)
  dead-letters drop ID                  give up on a parked message (its payload goes to the operator log)
  rebuild-projections [--dry-run]       rebuild every read model from the event store, online (shadow tables, swap);
                                        --dry-run rebuilds into a
                                        scratch schema and compares counts and checksums with the live tables
  republish --from <pos> [--to <pos>]   re-publish integration events with global position in (from, to]
Every command that changes something is recorded with its operator (--operator, else the OS user) in operator_log.
env: DATABASE_URL, NATS_URL (status, republish), BUS_NAMESPACE (optional), LOG_LEVEL;
dead-letters retry also reads the service's own configuration (its consumers are built from it).`;

const ZCliEnv = z.object({
  DATABASE_URL: z.string().min(1),
  NATS_URL: z.string().optional(),
  BUS_NAMESPACE: z.string().default(''),
  LOG_LEVEL: z.string().default('info'),
  PG_PREPARE_STATEMENTS: ZServiceEnv.shape.PG_PREPARE_STATEMENTS,
});

/** What the admin commands need of a service definition (the whole definition lets `dead-letters retry` build its consumers). */
export type AdminDefinition<DB extends KitTables & IdempotencyTables> = Pick<
  ServiceDefinition<DB, ServiceConfig, unknown>,
  'name' | 'migrations' | 'projections' | 'toIntegration' | 'cipher'
> &
  Partial<Pick<ServiceDefinition<DB, any, any, any>, 'config' | 'build' | 'consumers' | 'consumes' | 'ownsSessions'>>;

/** The consumers a service runs, built as `runService` builds them (without a bus of its own: effects only write). */
async function consumersOf<DB extends KitTables & IdempotencyTables>(
  def: AdminDefinition<DB>,
  database: Database<DB>,
  store: EventStore<DB>,
): Promise<ConsumerDefinition<DB>[]> {
  const log = pino({ level: 'silent' });
  const own: ConsumerDefinition<DB>[] = [];
  if (def.consumers && def.build && def.config) {
    const config = def.config();
    const ctx: ServiceContext<DB, any, any> = {
      name: def.name,
      config,
      database,
      db: database.db,
      store,
      bus: new InProcessEventBus({ log }),
      log,
      clock: systemClock,
      mailer: null,
      scheduler: new Scheduler<DB>({ database, log, handlers: {} }),
      overrides: {},
      operatorGuard: refuseEveryone,
    };
    own.push(...def.consumers(await def.build(ctx), ctx));
  }
  if (!def.ownsSessions) own.push(revocationsConsumer<DB>(database.schema, database));
  return own;
}

/** Admin tooling every service exposes as `npm run admin -- <command>` (see the service README). */
export async function runServiceCli<DB extends KitTables & IdempotencyTables>(def: AdminDefinition<DB>, argv: string[], env = process.env): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      all: { type: 'boolean' },
      operator: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (!command || values.help) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const config = loadConfig(ZCliEnv, env);
  const log = createLogger(`${def.name}-admin`, config.LOG_LEVEL);
  const operator = operatorName(values.operator);
  const who = { operator, log };
  // The online rebuild reads the next batch on one connection while it applies one on another (ADR 0026).
  const database = connectPostgres<DB>({
    connectionString: config.DATABASE_URL,
    schema: def.name,
    max: 4,
    prepareStatements: config.PG_PREPARE_STATEMENTS !== 'false',
  });
  const connectBus = () =>
    NatsEventBus.connect({ servers: config.NATS_URL!, name: `${def.name}-admin`, namespace: config.BUS_NAMESPACE || undefined, log });
  try {
    await migrate(database, def.migrations);
    const storeOptions = { context: def.name, projections: def.projections, toIntegration: def.toIntegration, cipher: def.cipher };
    const store = new EventStore({ database, ...storeOptions });
    switch (command) {
      case 'migrate':
        log.info('migrations applied');
        return 0;
      case 'status': {
        const bus = config.NATS_URL ? await connectBus() : null;
        try {
          const consumers = await consumersOf(def, database, store).catch(() => []);
          const status = await serviceStatus({
            service: def.name,
            db: database.db,
            bus,
            consumes: [...(def.consumes ?? []), ...(def.ownsSessions ? [] : [REVOCATIONS_CONTEXT])],
            durables: consumers.map((c) => ({ context: c.context, durable: c.durable })),
          });
          console.log(JSON.stringify(status, null, 2));
        } finally {
          await bus?.close();
        }
        return 0;
      }
      case 'dead-letters': {
        const action = positionals[1];
        const id = positionals[2] === undefined ? undefined : Number(positionals[2]);
        if (action === 'list') {
          console.log(JSON.stringify(await listDeadLetters(database.db), null, 2));
          return 0;
        }
        if (action === 'retry' && (values.all || (id !== undefined && Number.isInteger(id)))) {
          const consumers = await consumersOf(def, database, store);
          const outcomes = values.all ? await retryAllDeadLetters(database, consumers, who) : [await retryDeadLetter(database, consumers, id!, who)];
          console.log(JSON.stringify(outcomes, null, 2));
          return outcomes.every((o) => o.outcome === 'applied' || o.outcome === 'already applied') ? 0 : 1;
        }
        if (action === 'drop' && id !== undefined && Number.isInteger(id)) {
          const dropped = await dropDeadLetter(database, id, who);
          console.log(dropped ? `dead letter ${id} dropped` : `no dead letter ${id}`);
          return dropped ? 0 : 1;
        }
        console.error(USAGE);
        return 1;
      }
      case 'rebuild-projections': {
        if (values['dry-run']) {
          const result = await dryRunRebuild({ connectionString: config.DATABASE_URL, database, store: storeOptions, migrations: def.migrations, log, who });
          console.log(JSON.stringify(result, null, 2));
          return result.same ? 0 : 2;
        }
        // Online (ADR 0026): reads and writes go on; progress once a second on stderr, for the operator.
        let shown = 0;
        const applied = await rebuildProjections(store, log, {
          onProgress: (p) => {
            if (Date.now() - shown < 1000 && p.phase === 'load') return;
            shown = Date.now();
            const eta = p.etaSec === null ? '?' : `${p.etaSec} s`;
            process.stderr.write(`${def.name}: ${p.phase} ${p.applied} events (position ${p.position} of ${p.lastPosition}), ${p.eventsPerSec} events/s, ETA ${eta}\n`);
          },
        });
        log.info({ applied }, 'projections rebuilt');
        await recordOperatorAction(database.db, log, { operator, command: 'rebuild-projections', detail: { applied } });
        return 0;
      }
      case 'republish': {
        if (!config.NATS_URL || values.from === undefined) {
          console.error(USAGE);
          return 1;
        }
        const bus = await connectBus();
        try {
          await bus.ensureStreams([def.name]);
          const range = { from: Number(values.from), to: values.to === undefined ? undefined : Number(values.to) };
          const published = await republishEvents(store, bus, range, log);
          await recordOperatorAction(database.db, log, { operator, command: 'republish', detail: { ...range, published } });
        } finally {
          await bus.close();
        }
        return 0;
      }
      default:
        console.error(`unknown command: ${command}\n${USAGE}`);
        return 1;
    }
  } finally {
    await database.close();
  }
}
