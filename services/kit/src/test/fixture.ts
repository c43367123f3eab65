import { sql, type Kysely, type Migration } from 'kysely';
import pino from 'pino';
import type { EventBus } from '../bus/bus.js';
import { connectPostgres, type Database } from '../db/database.js';
import { migrate } from '../db/migrate.js';
import { kitIdempotencyMigration, kitRevocationsMigration } from '../db/migrations/index.js';
import type { IdempotencyTables, KitTables, PersonalDataTables, RevocationTables } from '../db/schema.js';
import { EventStore } from '../events/event-store.js';
import type { Projection } from '../events/projection.js';
import type { Decider, IntegrationMapper, RecordedEvent } from '../events/types.js';
import { CommandHandler } from '../events/command-handler.js';
import { conflict } from '../errors.js';
import type { ServiceConfig, ServiceDefinition } from '../service/service.js';
import { z } from 'zod';
import { createTestDatabase, type TestDatabase } from '../testing/infra.js';

export const silentLog = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A tiny "counter" domain used to exercise the kit: events `Incremented { by }` on streams `counter-<id>`. */
export interface CounterDB extends KitTables, PersonalDataTables, IdempotencyTables, RevocationTables {
  counters: { id: string; total: number; version: number };
  seen: { event_id: string; value: number };
}

export const counterMigrations: Record<string, Migration> = {
  '2026_01_01_0001_counters': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('counters')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createTable('seen').addColumn('event_id', 'text', (c) => c.primaryKey()).addColumn('value', 'integer', (c) => c.notNull()).execute();
    },
  },
  // The personal-data vault's table, as the services create it.
  '2026_01_01_0002_personal_data_keys': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('personal_data_keys')
        .addColumn('subject', 'text', (c) => c.primaryKey())
        .addColumn('key', 'bytea')
        .addColumn('forgotten_at', 'timestamptz')
        .execute();
    },
  },
  // The kit's own frozen tables, as the services list them.
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_23_0002_kit_revocations': kitRevocationsMigration,
};

export const counterProjection: Projection<CounterDB> = {
  name: 'counters',
  tables: ['counters'],
  async apply(trx, event: RecordedEvent) {
    if (event.type !== 'Incremented') return;
    const by = (event.data as { by: number }).by;
    if (by < 0) throw new Error('negative increments are refused by the projection');
    const id = event.streamId.replace(/^counter-/, '');
    await sql`INSERT INTO counters (id, total, version) VALUES (${id}, ${by}, ${event.streamVersion})
      ON CONFLICT (id) DO UPDATE SET total = counters.total + ${by}, version = ${event.streamVersion}
      WHERE counters.version < ${event.streamVersion}`.execute(trx);
  },
};

export const counterIntegration: IntegrationMapper = (event) =>
  event.type === 'Incremented' ? { type: 'Incremented', version: 1, data: event.data } : null;

export interface KitFixture {
  testDb: TestDatabase;
  database: Database<CounterDB>;
  store: EventStore<CounterDB>;
  close(): Promise<void>;
}

/** A fresh database with the kit tables and the counter read model, in schema `support` (any service schema works). */
export async function counterFixture(): Promise<KitFixture> {
  const testDb = await createTestDatabase();
  const database = connectPostgres<CounterDB>({ connectionString: testDb.url, schema: 'support', max: 20 });
  await migrate(database, counterMigrations);
  const store = new EventStore({ database, context: 'support', projections: [counterProjection], toIntegration: counterIntegration });
  return {
    testDb,
    database,
    store,
    async close() {
      await database.close();
      await testDb.drop();
    },
  };
}

export const metadata = { correlationId: 'test-correlation', causationId: null, actor: null };

export async function totalOf(db: Kysely<CounterDB>, id: string): Promise<number | null> {
  const row = await db.selectFrom('counters').select('total').where('id', '=', id).executeTakeFirst();
  return row ? Number(row.total) : null;
}

export type { EventBus };

type CounterEvent = { type: 'Incremented'; data: { by: number } };
type CounterCommand = { by: number; limit?: number };

/** The counter's pure decider: increments by `by`, refusing to pass `limit`. */
export const counterDecider: Decider<CounterCommand, CounterEvent, number> = {
  initialState: () => 0,
  evolve: (total, event) => total + event.data.by,
  decide: (command, total) => {
    if (command.limit !== undefined && total + command.by > command.limit) throw conflict('The counter would pass its limit.');
    return command.by === 0 ? [] : [{ type: 'Incremented', data: { by: command.by } }];
  },
};

export const counterStreamId = (id: string) => `counter-${id}`;

/** The counter as a whole service (for runService's tests): one command route, one read route. */
export const counterService: ServiceDefinition<CounterDB, ServiceConfig, { counters: CommandHandler<CounterCommand, CounterEvent, number, CounterDB> }> = {
  name: 'support',
  config: () => {
    throw new Error('the counter service is given its config');
  },
  migrations: counterMigrations,
  projections: [counterProjection],
  toIntegration: counterIntegration,
  build: (ctx) => ({ counters: new CommandHandler(ctx.store, { decider: counterDecider, streamId: counterStreamId }) }),
  routes(app, { counters }, ctx) {
    app.post(
      '/counters/:id',
      { schema: { params: z.object({ id: z.string() }), body: z.object({ by: z.number().int() }), response: { 200: z.object({ total: z.number() }) } } },
      async (request) => ({ total: (await counters.handle(request.params.id, { by: request.body.by }, metadata)).state }),
    );
    app.get('/counters/:id', { schema: { params: z.object({ id: z.string() }), response: { 200: z.object({ total: z.number().nullable() }) } } }, async (request) => ({
      total: await totalOf(ctx.db, request.params.id),
    }));
  },
};
