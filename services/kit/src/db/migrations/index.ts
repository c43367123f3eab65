import type { Migration } from 'kysely';
import * as m0000_0001 from './0000_0001_kit_event_store.js';
import * as idempotency from './2026_11_23_0001_kit_idempotency.js';
import * as revocations from './2026_11_23_0002_kit_revocations.js';
import * as operatorAudit from './2026_11_26_0001_kit_operator_audit.js';
import * as mailQuota from './2026_11_29_0001_kit_mail_quota.js';

/**
 * The kit's tables, created in every service schema before the service's own migrations (their names sort first).
 * Explicit and ordered; each file is frozen once merged — a later change to the kit never changes what an old
 * migration does (`migrations.unit.spec.ts` holds the SQL each one runs).
 */
export const kitMigrations: Record<string, Migration> = {
  '0000_0001_kit_event_store': m0000_0001,
};

/** Frozen too: the Idempotency-Key table, which every service lists as `2026_11_23_0001_kit_idempotency` (ADR 0016). */
export const kitIdempotencyMigration: Migration = idempotency;

/**
 * Frozen too: the revoked-sessions table, which every service that verifies access tokens (all but identity) lists as
 * `2026_11_23_0002_kit_revocations` (ADR 0017).
 */
export const kitRevocationsMigration: Migration = revocations;

/**
 * Frozen too: the operators' audit read model (issue 18, ADR 0031), which every service whose routes operators call
 * lists as `2026_11_26_0001_kit_operator_audit`, with `operatorAuditProjection` among its projections.
 */
export const kitOperatorAuditMigration: Migration = operatorAudit;

/**
 * Frozen too: the mail caps' day counters (issue 33, ADR 0060), which every service that mails addresses nobody
 * proved (identity, questions) lists as `2026_11_29_0003_kit_mail_quota`, typed `MailQuotaTables`.
 */
export const kitMailQuotaMigration: Migration = mailQuota;
