import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One key per person for the personal fields of their events (ADR 0010).
  await db.schema
    .createTable('personal_data_keys')
    .ifNotExists()
    .addColumn('subject', 'text', (c) => c.primaryKey())
    // null once forgotten: the row stays so nothing new is sealed for a deleted person by mistake.
    .addColumn('key', 'bytea')
    .addColumn('forgotten_at', 'timestamptz')
    .execute();

  // Encoded avatar images (small: a few tens of kB per size). Served at a versioned URL, so rows never change.
  await db.schema
    .createTable('avatars')
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('avatars_pk', ['user_id', 'version', 'size'])
    .execute();

  // Password-reset tokens, stored as SHA-256 hashes; single use, short-lived.
  await db.schema
    .createTable('password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX password_resets_user ON password_resets (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['password_resets', 'avatars', 'personal_data_keys']) await db.schema.dropTable(t).execute();
}
