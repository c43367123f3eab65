import { sql, type Kysely } from 'kysely';

// Frozen: the revoked-sessions table (ADR 0017) as created on 2026-11-23, listed under this name by every service
// that verifies access tokens (all but identity). Change it with a new migration, never here.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `CREATE TABLE revoked_sessions (
         session_id text PRIMARY KEY,
         user_id text NOT NULL,
         reason text NOT NULL,
         revoked_at timestamptz NOT NULL,
         recorded_at timestamptz NOT NULL DEFAULT now()
       )`,
    // Rows are dropped once no token of the session can still be alive; the purge reads by age.
    `CREATE INDEX revoked_sessions_recorded_at ON revoked_sessions (recorded_at)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
