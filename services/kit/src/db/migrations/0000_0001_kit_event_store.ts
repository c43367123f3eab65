import { sql, type Kysely } from 'kysely';

// Frozen: the kit's tables as they were created on 2026-11-21. Change them with a new migration, never here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('global_position', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'uuid', (c) => c.notNull().unique())
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('stream_version', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The optimistic-concurrency guard: two appends at the same expected version cannot both commit.
    .addUniqueConstraint('events_stream_version_unique', ['stream_id', 'stream_version'])
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('position', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('envelope', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('published_at', 'timestamptz')
    .execute();
  // The relay only ever reads unpublished rows; a partial index keeps that read small however long the history.
  await sql`CREATE INDEX outbox_unpublished ON outbox (position) WHERE published_at IS NULL`.execute(db);

  await db.schema
    .createTable('processed_events')
    .addColumn('consumer', 'text', (c) => c.notNull())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('processed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('processed_events_pk', ['consumer', 'event_id'])
    .execute();

  await db.schema
    .createTable('dead_letters')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('consumer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('scheduled_jobs')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('done_at', 'timestamptz')
    .execute();
  // Due-job polling reads pending jobs by time only.
  await sql`CREATE INDEX scheduled_jobs_due ON scheduled_jobs (due_at) WHERE status = 'pending'`.execute(db);
}
