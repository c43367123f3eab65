import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { normaliseEmail } from './address.js';
import type { MailQuotaTables } from '../db/schema.js';

/** One cap on one kind of mail: at most `limit` a UTC day for `bucket`. */
export interface MailCap {
  kind: string;
  bucket: string;
  limit: number;
}

/**
 * The buckets a cap counts in (ADR 0060). An address is counted normalised as the guest limit sees it (ADR 0054) —
 * `Victim+1@GoogleMail.com` and `victim@gmail.com` are one inbox — and hashed: the counter needs to tell addresses
 * apart, not to know them.
 */
export const mailBucket = {
  address: (raw: string) => `address:${createHash('sha256').update(normaliseEmail(raw)).digest('hex')}`,
  account: (id: string) => `account:${id}`,
};

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Counts one mail against every cap, in one statement inside the caller's transaction, and answers the first cap it
 * is over (null: the mail may go). The counter is an upsert per (kind, bucket, day): Postgres serialises concurrent
 * upserts of one row, so two instances never both take the last one; a caller that refuses rolls back its count with
 * its change, one that skips the mail keeps it — the counter then also says how many were skipped. Rows older than
 * yesterday are dropped by the same statement.
 */
export async function takeMailQuota<DB extends MailQuotaTables>(db: Kysely<DB>, caps: readonly MailCap[], now: Date): Promise<MailCap | null> {
  const unique = new Map<string, MailCap>();
  for (const cap of caps) unique.set(`${cap.kind}\u0000${cap.bucket}`, cap);
  // One order for every caller, so two transactions taking the same rows never wait on each other in a cycle.
  const sorted = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, cap]) => cap);
  if (sorted.length === 0) return null;
  const day = utcDay(now);
  const yesterday = utcDay(new Date(now.getTime() - 86_400_000));
  const { rows } = await sql<{ kind: string; bucket: string; taken: number }>`
    WITH pruned AS (DELETE FROM mail_quota WHERE day < ${yesterday}::date)
    INSERT INTO mail_quota (kind, bucket, day, taken)
    VALUES ${sql.join(sorted.map((cap) => sql`(${cap.kind}, ${cap.bucket}, ${day}::date, 1)`))}
    ON CONFLICT (kind, bucket, day) DO UPDATE SET taken = mail_quota.taken + 1
    RETURNING kind, bucket, taken`.execute(db);
  const taken = new Map(rows.map((row) => [`${row.kind}\u0000${row.bucket}`, Number(row.taken)]));
  return sorted.find((cap) => (taken.get(`${cap.kind}\u0000${cap.bucket}`) ?? 0) > cap.limit) ?? null;
}
