import type { IdempotencyTables, KitTables, PersonalDataTables, RevocationTables, Timestamp } from '@ques/kit';

/**
 * Support's tables, declared once (created by `migrations/`); every query runs on `Kysely<SupportDB>`. No read model:
 * a request's own stream is all anything reads back.
 */
export interface SupportDB extends KitTables, PersonalDataTables, IdempotencyTables, RevocationTables {
  used_captchas: UsedCaptchasTable;
  rate_limit_windows: RateLimitWindowsTable;
}

/** Solved captcha challenges by a hash of their signature (the primary key refuses a replay). */
export interface UsedCaptchasTable {
  challenge_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp;
}

/** Per-client request counters shared by every replica (fixed one-minute windows). */
export interface RateLimitWindowsTable {
  client_key: string;
  window_start: Timestamp;
  hits: number;
}
