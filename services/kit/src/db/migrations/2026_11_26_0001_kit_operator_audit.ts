import { sql, type Kysely } from 'kysely';

// Frozen: the operators' audit read model (issue 18, ADR 0031) as created on 2026-11-26, listed under this name by
// every service whose routes operators call. Rebuilt from the service's `OperatorActed` events. Change it with a new
// migration, never here.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `CREATE TABLE operator_audit (
         id text PRIMARY KEY,
         operator_id text NOT NULL,
         operator_username text NOT NULL,
         action text NOT NULL,
         subject text NOT NULL,
         summary text NOT NULL,
         detail jsonb NOT NULL,
         at timestamptz NOT NULL,
         global_position bigint NOT NULL
       )`,
    `CREATE INDEX operator_audit_position ON operator_audit (global_position DESC)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
