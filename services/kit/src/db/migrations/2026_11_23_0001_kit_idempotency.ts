import { sql, type Kysely } from 'kysely';

// Frozen: the Idempotency-Key table (ADR 0016) as created on 2026-11-23, listed by each service under this name.
// Change it with a new migration, never here.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `CREATE TABLE idempotency_keys (
         caller text NOT NULL,
         key text NOT NULL,
         fingerprint text NOT NULL,
         state text NOT NULL,
         claim_id uuid NOT NULL,
         locked_until timestamptz NOT NULL,
         expires_at timestamptz NOT NULL,
         response_status integer,
         response_headers jsonb,
         response_body bytea,
         created_at timestamptz NOT NULL,
         PRIMARY KEY (caller, key)
       )`,
    `CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
