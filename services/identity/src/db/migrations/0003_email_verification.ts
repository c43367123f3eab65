import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Whether the account's current address is proven (ADR 0021); every change of address sets it back to false.
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();

  // One row per verification mail: the SHA-256 of the link's token (never the token), the address it proves, 24 h.
  await db.schema
    .createTable('email_verifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX email_verifications_user ON email_verifications (user_id, created_at)`.execute(db);
  await sql`CREATE INDEX password_resets_user_created ON password_resets (user_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX password_resets_user_created`.execute(db);
  await db.schema.dropTable('email_verifications').execute();
  await db.schema.alterTable('users').dropColumn('email_verified').execute();
}
