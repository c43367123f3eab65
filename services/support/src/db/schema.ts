import type { IdempotencyTables, KitTables, NullableTimestamp, OperatorAuditTables, PersonalDataTables, RevocationTables, Timestamp } from '@ques/kit';

/**
 * Support's tables, declared once (created by `migrations/`); every query runs on `Kysely<SupportDB>`. No read model:
 * a request's own stream is all anything reads back.
 */
export interface SupportDB extends KitTables, PersonalDataTables, IdempotencyTables, RevocationTables, OperatorAuditTables {
  used_captchas: UsedCaptchasTable;
  rate_limit_windows: RateLimitWindowsTable;
  support_requests: SupportRequestsTable;
  abuse_reports: AbuseReportsTable;
  support_contacts: SupportContactsTable;
}

/** Read model of support requests for the operator console (projection of `support-request-*`). */
export interface SupportRequestsTable {
  request_id: string;
  category: string;
  title: string;
  description: string;
  user_id: string | null;
  username: string | null;
  status: 'open' | 'answered';
  requested_at: Timestamp;
  answered_at: NullableTimestamp;
  answer_note: string | null;
  answered_by: string | null;
  answer_mailed_at: NullableTimestamp;
}

/** Read model of abuse reports (projection of `abuse-report-*`). */
export interface AbuseReportsTable {
  report_id: string;
  target_kind: 'answer' | 'profile';
  target_id: string;
  target_username: string | null;
  reason: string;
  note: string | null;
  user_id: string | null;
  username: string | null;
  status: 'open' | 'hidden' | 'dismissed';
  reported_at: Timestamp;
  resolved_at: NullableTimestamp;
  resolution_note: string | null;
  resolved_by: string | null;
}

/** Identity's users, for mailing answers to a verified address (consumer `support--contacts`). */
export interface SupportContactsTable {
  user_id: string;
  email: string;
  email_verified: boolean;
  deleted: boolean;
  version: number;
  updated_at: Timestamp;
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
