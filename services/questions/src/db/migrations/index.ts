import type { Migration } from 'kysely';
import { kitIdempotencyMigration, kitMailQuotaMigration, kitOperatorAuditMigration, kitRevocationsMigration } from '@ques/kit/migrations';
import * as m0001 from './0001_questions.js';
import * as m0002 from './0002_personal_data_keys.js';
import * as m0003 from './0003_recipients_email_verified.js';
import * as m0004 from './0004_owner_control.js';
import * as m0005 from './0005_status_links.js';
import * as m0006 from './0006_trigrams_withdrawn_inbox.js';
import * as m0007 from './0007_trust_timings.js';
import * as m0008 from './0008_operator_hide.js';
import * as m0009 from './0009_similar_titles_by_owner.js';
import * as m0010 from './0010_similar_newest_matches.js';
import * as m0011 from './0011_recipient_brand.js';
import * as m0012 from './0012_guest_limits.js';

/**
 * Explicit, ordered; each file is frozen once merged: it holds its DDL as written that day and imports no live code
 * (`migrations.unit.spec.ts` keeps the SQL each one runs). The kit's event-store tables come first (`kitMigrations`);
 * its other tables are frozen files too, listed here from `@ques/kit/migrations`.
 */
export const questionsMigrations: Record<string, Migration> = {
  '2026_11_22_0001_questions': m0001,
  '2026_11_22_0002_personal_data_keys': m0002,
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_23_0002_kit_revocations': kitRevocationsMigration,
  '2026_11_24_0001_recipients_email_verified': m0003,
  '2026_11_25_0001_owner_control': m0004,
  '2026_11_26_0001_status_links': m0005,
  '2026_11_26_0002_trigrams_withdrawn_inbox': m0006,
  '2026_11_27_0001_trust_timings': m0007,
  '2026_11_27_0002_kit_operator_audit': kitOperatorAuditMigration,
  '2026_11_27_0003_operator_hide': m0008,
  '2026_11_28_0001_similar_titles_by_owner': m0009,
  '2026_11_28_0002_similar_newest_matches': m0010,
  '2026_11_29_0001_recipient_brand': m0011,
  '2026_11_29_0002_guest_limits': m0012,
  '2026_11_29_0003_kit_mail_quota': kitMailQuotaMigration,
};
