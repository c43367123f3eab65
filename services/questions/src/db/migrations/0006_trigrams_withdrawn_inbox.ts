import { sql, type Kysely } from 'kysely';

/**
 * Issue 14, "already answered?" fast and tolerating typos: the full-text document stored (`search_doc`, generated), and `pg_trgm` (shipped with Postgres; loaded into the embedded PGlite
 * by the kit) and a trigram index on the public wording of a question's title. The extension lives in `public` (on
 * every service's search_path), so a second schema in the same database finds it too. And the owner's inbox keeps
 * the questions their askers withdrew (shown "Withdrawn"): its partial index takes them in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The search document, stored (ranking 2,000 answers re-parsed on every keystroke cost ~300 ms; read: ~1 ms).
  await sql`ALTER TABLE questions ADD COLUMN search_doc tsvector GENERATED ALWAYS AS (to_tsvector('english', coalesce(public_question, question) || ' ' || coalesce(answer, ''))) STORED`.execute(db);
  await sql`CREATE INDEX questions_search_doc ON questions USING gin (search_doc)`.execute(db);
  await sql`DROP INDEX IF EXISTS questions_answer_search`.execute(db);
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
  await sql`CREATE INDEX questions_title_trigrams ON questions USING gin ((coalesce(public_question, question)) public.gin_trgm_ops)`.execute(db);
  await sql`CREATE INDEX questions_inbox_with_withdrawn ON questions (to_user_id, created_at DESC, id DESC)
    WHERE NOT is_curated AND NOT deleted_by_receiver AND lifecycle IN ('pending', 'answered', 'withdrawn')`.execute(db);
  await sql`DROP INDEX IF EXISTS questions_inbox`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX questions_inbox ON questions (to_user_id, created_at DESC, id DESC)
    WHERE NOT is_curated AND NOT deleted_by_receiver AND lifecycle IN ('pending', 'answered')`.execute(db);
  await sql`DROP INDEX IF EXISTS questions_inbox_with_withdrawn`.execute(db);
  await sql`DROP INDEX IF EXISTS questions_title_trigrams`.execute(db);
  await sql`CREATE INDEX questions_answer_search ON questions USING gin (to_tsvector('english', coalesce(public_question, question) || ' ' || coalesce(answer, '')))`.execute(db);
  await sql`ALTER TABLE questions DROP COLUMN search_doc`.execute(db);
}
