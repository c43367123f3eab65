import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Per-person keys sealing the personal fields of stored events (crypto-shredding).
  await db.schema
    .createTable('personal_data_keys')
    .ifNotExists()
    .addColumn('subject', 'text', (c) => c.primaryKey())
    // null once forgotten: the row stays so nothing new is sealed for a deleted person by mistake.
    .addColumn('key', 'bytea')
    .addColumn('forgotten_at', 'timestamptz')
    .execute();

  // Solved captcha challenges, by a hash of their signature: the primary key is what refuses a replay.
  await db.schema
    .createTable('used_captchas')
    .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Expired rows are purged by expiry.
  await sql`CREATE INDEX used_captchas_expires ON used_captchas (expires_at)`.execute(db);

  // Per-client request counters shared by every replica (fixed one-minute windows).
  await db.schema
    .createTable('rate_limit_windows')
    .addColumn('client_key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_windows_pk', ['client_key', 'window_start'])
    .execute();
  // Old windows are swept by start time.
  await sql`CREATE INDEX rate_limit_windows_start ON rate_limit_windows (window_start)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limit_windows').execute();
  await db.schema.dropTable('used_captchas').execute();
  await db.schema.dropTable('personal_data_keys').execute();
}
