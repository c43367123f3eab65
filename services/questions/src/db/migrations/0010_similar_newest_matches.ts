import { sql, type Kysely } from 'kysely';

/**
 * Issue 14, "already answered?": the newest matches of an owner's public answers read from one index. The search
 * ranks the owner's newest 200 public answers that match; read through this index — in the public list's order, with
 * the document and the answer date in the index itself — a word many answers have stops after those 200 entries
 * without visiting the table (an index-only scan: 0.6 ms instead of 3 ms for 922 matches among 2,000 answers), and a
 * rare word reads the owner's 2,000 entries once (~1 ms).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX questions_public_search ON questions (to_username, created_at DESC, id DESC)
    INCLUDE (search_doc, answered_at)
    WHERE lifecycle = 'answered' AND display_on_profile AND NOT deleted_by_receiver AND NOT asker_private`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS questions_public_search`.execute(db);
}
