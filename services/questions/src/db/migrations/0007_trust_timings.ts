import { sql, type Kysely } from 'kysely';

/**
 * Issue 15, public trust stats (docs/adr/0029): one row per question an owner received (or curated), with the times
 * the stats are computed from. A projection of the questions events (rebuildable); private questions are rows too
 * (they count in the rates), nothing of their text is kept here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trust_timings')
    .addColumn('question_id', 'uuid', (c) => c.primaryKey())
    .addColumn('owner_id', 'uuid', (c) => c.notNull())
    .addColumn('asked_at', 'timestamptz')
    .addColumn('answered_at', 'timestamptz')
    .addColumn('curated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('asker_private', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_public', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('window_expired', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('withdrawn', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX trust_timings_owner_asked ON trust_timings (owner_id, asked_at)`.execute(db);
  await sql`CREATE INDEX trust_timings_owner_answered ON trust_timings (owner_id, answered_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trust_timings').execute();
}
