import { sql, type Kysely } from 'kysely';

/**
 * Issue 14, "already answered?" tolerating typos: `pg_trgm` (shipped with Postgres; loaded into the embedded PGlite
 * by the kit) and a trigram index on the public wording of a question's title. The extension lives in `public` (on
 * every service's search_path), so a second schema in the same database finds it too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`.execute(db);
  await sql`CREATE INDEX questions_title_trigrams ON questions USING gin ((coalesce(public_question, question)) public.gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS questions_title_trigrams`.execute(db);
}
