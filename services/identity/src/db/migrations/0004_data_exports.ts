import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per data export (issue 15, ADR 0030): its state, and the ZIP while it may be downloaded (24 h).
  await db.schema
    .createTable('data_exports')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('archive', 'bytea')
    .addColumn('size_bytes', 'integer')
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ready_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX data_exports_user ON data_exports (user_id, requested_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('data_exports').execute();
}
