import { sql, type Kysely } from 'kysely';

/**
 * Issue 14, "already answered?" with a typo in every word (the trigram fallback) within its 20 ms: the trigram index
 * of 0006 covers every question of every owner, so a search for one owner's titles checked all of that owner's public
 * answers one by one (~20 ms for 2,000). This index is the owner's public answers only, keyed by owner *and* title
 * trigrams (a GiST index: `btree_gist` gives the owner's name its equality; ~1 ms for the same search), and replaces
 * 0006's, which nothing else reads. `btree_gist` ships with Postgres as `pg_trgm` does (the kit loads both into the
 * embedded PGlite) and is a trusted extension.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public`.execute(db);
  await sql`CREATE INDEX questions_public_title_trigrams ON questions
    USING gist (to_username, (coalesce(public_question, question)) public.gist_trgm_ops)
    WHERE lifecycle = 'answered' AND display_on_profile AND NOT deleted_by_receiver AND NOT asker_private`.execute(db);
  await sql`DROP INDEX IF EXISTS questions_title_trigrams`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX questions_title_trigrams ON questions USING gin ((coalesce(public_question, question)) public.gin_trgm_ops)`.execute(db);
  await sql`DROP INDEX IF EXISTS questions_public_title_trigrams`.execute(db);
}
