import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Read model of the question aggregate (inline projection, rebuildable from events).
  await db.schema
    .createTable('questions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('lifecycle', 'text', (c) => c.notNull())
    .addColumn('is_curated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('answer', 'text')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('display_on_profile', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('deleted_by_receiver', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('to_user_id', 'uuid', (c) => c.notNull())
    .addColumn('to_username', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('to_user_email', 'text', (c) => c.notNull())
    .addColumn('asker_user_id', 'uuid')
    .addColumn('from_username', 'text', (c) => c.notNull())
    .addColumn('asked_name', 'text', (c) => c.notNull())
    .addColumn('asked_email', 'text')
    .addColumn('replier_name', 'text')
    .addColumn('tip_amount', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text')
    .addColumn('payment_ref', 'text')
    .addColumn('tip_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('answer_deadline', 'timestamptz')
    .addColumn('answer_window_expired', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('answered_at', 'timestamptz')
    // Stream version last applied: makes the projection idempotent under retries and rebuilds.
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();

  // Each list is one index range scan in (created_at, id) order, the keyset the cursor encodes. The partial
  // predicates are exactly the list's WHERE clause (the planner only uses a partial index it can prove applies).
  // Public page (spec §5): answered, shown, not deleted, addressed to the profile — newest first.
  await sql`CREATE INDEX questions_public ON questions (to_username, created_at DESC, id DESC)
    WHERE lifecycle = 'answered' AND display_on_profile AND NOT deleted_by_receiver`.execute(db);
  // Inbox: received, not curated, not deleted, asked (pending or answered).
  await sql`CREATE INDEX questions_inbox ON questions (to_user_id, created_at DESC, id DESC)
    WHERE NOT is_curated AND NOT deleted_by_receiver AND lifecycle IN ('pending', 'answered')`.execute(db);
  // Curated list of an owner.
  await sql`CREATE INDEX questions_curated ON questions (to_user_id, created_at DESC, id DESC)
    WHERE is_curated AND NOT deleted_by_receiver`.execute(db);
  // Asked list: by account, and guest questions by the e-mail they were asked with.
  await sql`CREATE INDEX questions_asked_by_user ON questions (asker_user_id, created_at DESC, id DESC)
    WHERE lifecycle IN ('pending', 'answered')`.execute(db);
  await sql`CREATE INDEX questions_asked_by_guest ON questions (asked_email, created_at DESC, id DESC)
    WHERE asker_user_id IS NULL AND lifecycle IN ('pending', 'answered')`.execute(db);

  // Local copy of what questions needs about users, fed by identity's events (never identity's tables).
  await db.schema
    .createTable('recipients')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('archive_profile', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deleted', 'boolean', (c) => c.notNull().defaultTo(false))
    // Identity stream version last applied: an older event arriving late never overwrites a newer one.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Asking by `toUsername` and curating resolve a username to a user.
  await db.schema.createIndex('recipients_username').on('recipients').column('username').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('recipients').execute();
  await db.schema.dropTable('questions').execute();
}
