import { sql, type Kysely, type Migration } from 'kysely';
import pino from 'pino';
import type { EventBus } from '../bus/bus.js';
import { connectPostgres, type Database } from '../db/database.js';
import { migrate } from '../db/migrations.js';
import { EventStore } from '../events/event-store.js';
import type { IntegrationMapper, Projection, RecordedEvent } from '../events/types.js';
import { createTestDatabase, type TestDatabase } from '../testing/infra.js';

export const silentLog = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** A tiny "counter" domain used to exercise the kit: events `Incremented { by }` on streams `counter-<id>`. */
export const counterMigrations: Record<string, Migration> = {
  '2026_01_01_0001_counters': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('counters')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createTable('seen').addColumn('event_id', 'text', (c) => c.primaryKey()).addColumn('value', 'integer', (c) => c.notNull()).execute();
    },
  },
};

export const counterProjection: Projection = {
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
  database: Database;
  store: EventStore;
  close(): Promise<void>;
}

/** A fresh database with the kit tables and the counter read model, in schema `support` (any service schema works). */
export async function counterFixture(): Promise<KitFixture> {
  const testDb = await createTestDatabase();
  const database = connectPostgres({ connectionString: testDb.url, schema: 'support', max: 20 });
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

export async function totalOf(db: Kysely<any>, id: string): Promise<number | null> {
  const row = await db.selectFrom('counters').select('total').where('id', '=', id).executeTakeFirst();
  return row ? Number(row.total) : null;
}

export type { EventBus };
