import { sql, type Kysely } from 'kysely';

/**
 * Issue 14, asker trust: the links to a question's private status page. Only the SHA-256 of each token is stored
 * (a database leak gives no working link). `guest`: the link mailed to the guest's typed address — opening it
 * confirms that address; `answer_mailed`: the answer e-mail went out (it waits for the confirmation). And the
 * asker's consent on the questions read model (`asker_private`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('status_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('question_id', 'uuid', (c) => c.notNull())
    .addColumn('guest', 'boolean', (c) => c.notNull())
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('answer_mailed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('status_links_question').on('status_links').columns(['question_id']).execute();
  // The asker's consent: a private question is never public, whatever the owner toggles.
  await db.schema
    .alterTable('questions')
    .addColumn('asker_private', 'boolean', (c) => c.notNull().defaultTo(false))
    // Redaction: the public wording the owner chose when answering (null: as asked).
    .addColumn('public_question', 'text')
    .addColumn('public_detail', 'text')
    .execute();
  // "Already answered?": ranked full-text search over an owner's answers (built in; PGlite has it too).
  await sql`CREATE INDEX questions_answer_search ON questions USING gin (to_tsvector('english', coalesce(public_question, question) || ' ' || coalesce(answer, '')))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS questions_answer_search`.execute(db);
  await db.schema.alterTable('questions').dropColumn('asker_private').dropColumn('public_question').dropColumn('public_detail').execute();
  await db.schema.dropTable('status_links').execute();
}
