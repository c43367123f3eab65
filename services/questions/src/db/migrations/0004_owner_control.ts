import { sql, type Kysely } from 'kysely';

/**
 * Issue 16, owner control over asking: each owner's settings (pause, cap, blocked words, built-in filter, nudges),
 * their blocks (account, e-mail hash, device hash), and where each question came from (hashed, per owner) so that
 * "Block this asker" can name the device and guests can be limited per device.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('asking_settings')
    .addColumn('owner_id', 'uuid', (c) => c.primaryKey())
    .addColumn('paused_until', 'timestamptz')
    .addColumn('pause_note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('pending_cap', 'integer')
    .addColumn('blocked_words', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('built_in_filter', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('nudges', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('asker_blocks')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('owner_id', 'uuid', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('account_id', 'uuid')
    .addColumn('email_hash', 'text')
    .addColumn('device_hash', 'text')
    .addColumn('source_question_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('asker_blocks_owner').on('asker_blocks').columns(['owner_id', 'created_at']).execute();
  await db.schema
    .createIndex('asker_blocks_source')
    .on('asker_blocks')
    .columns(['owner_id', 'source_question_id'])
    .unique()
    .execute();

  await db.schema
    .createTable('question_origins')
    .addColumn('question_id', 'uuid', (c) => c.primaryKey())
    .addColumn('owner_id', 'uuid', (c) => c.notNull())
    .addColumn('guest', 'boolean', (c) => c.notNull())
    .addColumn('email_hash', 'text')
    .addColumn('device_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('question_origins_device')
    .on('question_origins')
    .columns(['owner_id', 'device_hash', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('question_origins').execute();
  await db.schema.dropTable('asker_blocks').execute();
  await db.schema.dropTable('asking_settings').execute();
}
