import { sql, type Kysely } from 'kysely';

// Frozen (issue 18, ADR 0031): the operator flag of the users read model, and the profile claims read model.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('operator', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`CREATE INDEX users_operator ON users (id) WHERE operator`.execute(db);
  // The curator's note on where an archive profile's material comes from.
  await db.schema
    .alterTable('users')
    .addColumn('archive_sources', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  // One claim of an archive profile: who asks, how they say they can be verified, and what became of it.
  await db.schema
    .createTable('profile_claims')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('profile_id', 'uuid', (c) => c.notNull())
    .addColumn('claimant_id', 'uuid', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('decided_at', 'timestamptz')
    .execute();
  // At most one pending claim per profile.
  await sql`CREATE UNIQUE INDEX profile_claims_one_pending ON profile_claims (profile_id) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX profile_claims_status ON profile_claims (status, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('profile_claims').execute();
  await db.schema.alterTable('users').dropColumn('archive_sources').execute();
  await sql`DROP INDEX users_operator`.execute(db);
  await db.schema.alterTable('users').dropColumn('operator').execute();
}
