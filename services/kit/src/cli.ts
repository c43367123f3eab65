import { parseArgs } from 'node:util';
import { z } from 'zod';
import { NatsEventBus } from './bus/nats-bus.js';
import { loadConfig } from './config/config.js';
import { connectPostgres } from './db/database.js';
import { migrate } from './db/migrate.js';
import type { IdempotencyTables, KitTables } from './db/schema.js';
import { EventStore } from './events/event-store.js';
import { rebuildProjections, republishEvents } from './events/replay.js';
import { createLogger } from './logger.js';
import type { ServiceConfig, ServiceDefinition } from './service/service.js';

const USAGE = `usage: <service>-admin <command>
  migrate                               apply pending migrations
  rebuild-projections                   rebuild every read model from the event store, online (shadow tables, swap)
  republish --from <pos> [--to <pos>]   re-publish integration events with global position in (from, to]
env: DATABASE_URL, NATS_URL (republish), BUS_NAMESPACE (optional), LOG_LEVEL`;

const ZCliEnv = z.object({
  DATABASE_URL: z.string().min(1),
  NATS_URL: z.string().optional(),
  BUS_NAMESPACE: z.string().default(''),
  LOG_LEVEL: z.string().default('info'),
});

/** What the admin commands need of a service definition. */
export type AdminDefinition<DB extends KitTables & IdempotencyTables> = Pick<ServiceDefinition<DB, ServiceConfig, unknown>, 'name' | 'migrations' | 'projections' | 'toIntegration' | 'cipher'>;

/** Admin tooling every service exposes as `npm run admin -- <command>` (see the service README). */
export async function runServiceCli<DB extends KitTables & IdempotencyTables>(def: AdminDefinition<DB>, argv: string[], env = process.env): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' } },
  });
  const command = positionals[0];
  if (!command || values.help) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const config = loadConfig(ZCliEnv, env);
  const log = createLogger(`${def.name}-admin`, config.LOG_LEVEL);
  // The online rebuild reads the next batch on one connection while it applies one on another (ADR 0026).
  const database = connectPostgres<DB>({ connectionString: config.DATABASE_URL, schema: def.name, max: 4 });
  try {
    await migrate(database, def.migrations);
    const store = new EventStore({ database, context: def.name, projections: def.projections, toIntegration: def.toIntegration, cipher: def.cipher });
    switch (command) {
      case 'migrate':
        log.info('migrations applied');
        return 0;
      case 'rebuild-projections': {
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
        return 0;
      }
      case 'republish': {
        if (!config.NATS_URL || values.from === undefined) {
          console.error(USAGE);
          return 1;
        }
        const bus = await NatsEventBus.connect({ servers: config.NATS_URL, name: `${def.name}-admin`, namespace: config.BUS_NAMESPACE || undefined, log });
        try {
          await bus.ensureStreams([def.name]);
          const published = await republishEvents(store, bus, { from: Number(values.from), to: values.to === undefined ? undefined : Number(values.to) }, log);
          log.info({ published }, 'events re-published');
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
