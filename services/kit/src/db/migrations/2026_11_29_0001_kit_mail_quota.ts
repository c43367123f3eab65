import { sql, type Kysely } from 'kysely';

// Frozen: the mail caps' day counters (issue 33, ADR 0060) as created on 2026-11-29, listed under this name by every
// service that mails addresses nobody proved. Change it with a new migration, never here.
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `CREATE TABLE mail_quota (
         kind text NOT NULL,
         bucket text NOT NULL,
         day date NOT NULL,
         taken integer NOT NULL,
         PRIMARY KEY (kind, bucket, day)
       )`,
    `CREATE INDEX mail_quota_day ON mail_quota (day)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}
