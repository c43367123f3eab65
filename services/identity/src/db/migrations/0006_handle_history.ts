import { sql, type Kysely } from 'kysely';

/*
 * Frozen (issue 28): every public handle a person holds or released. `released_at` null: their current handle;
 * set: renamed away at that time (its pages redirect to the current one; nobody else may take it for 90 days). The
 * primary key makes a handle one person's, current or recently released, in the same transaction as the rename.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('handle_history')
    .addColumn('handle', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('released_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX handle_history_user ON handle_history (user_id)`.execute(db);
  // Today's handles are everyone's current ones.
  await sql`INSERT INTO handle_history (handle, user_id, claimed_at) SELECT username, id, created_at FROM users WHERE username <> '' ON CONFLICT DO NOTHING`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('handle_history').execute();
}
