import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Read model of the user aggregate (rebuildable from events); its unique indexes are also the guards that make
  // e-mail and username unique, since the projection commits with the append.
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar_url', 'text', (c) => c.notNull())
    .addColumn('brand_color_main', 'text', (c) => c.notNull())
    .addColumn('brand_color_light', 'text', (c) => c.notNull())
    .addColumn('archive_profile', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_username_unique').on('users').column('username').unique().execute();
  await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();

  // Sessions are operational state, not domain history: one row per login (a refresh-token family).
  await db.schema
    .createTable('session_families')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .execute();
  // Revoking "every other session of this user" scans by user.
  await db.schema.createIndex('session_families_user').on('session_families').column('user_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('family_id', 'uuid', (c) => c.notNull().references('session_families.id').onDelete('cascade'))
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // The throttle counts one account's attempts in a recent window.
  await sql`CREATE INDEX login_attempts_account ON login_attempts (account_key, attempted_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['login_attempts', 'refresh_tokens', 'session_families', 'users']) await db.schema.dropTable(t).execute();
}
