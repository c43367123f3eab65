import type { Migration } from 'kysely';
import { kitIdempotencyMigration, kitMailQuotaMigration, kitOperatorAuditMigration } from '@ques/kit/migrations';
import * as m0001 from './0001_identity.js';
import * as m0002 from './0002_avatars_resets_personal_data.js';
import * as m0003 from './0003_email_verification.js';
import * as m0004 from './0004_data_exports.js';
import * as m0005 from './0005_operators_claims.js';
import * as m0006 from './0006_handle_history.js';
import * as m0007 from './0007_claim_second_approval.js';

/**
 * Explicit, ordered; each file is frozen once merged: it holds its DDL as written that day and imports no live code
 * (`migrations.unit.spec.ts` keeps the SQL each one runs). The kit's event-store tables come first (`kitMigrations`);
 * its other tables are frozen files too, listed here from `@ques/kit/migrations`.
 */
export const identityMigrations: Record<string, Migration> = {
  '2026_11_21_0001_identity': m0001,
  '2026_11_21_0002_avatars_resets_personal_data': m0002,
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_24_0001_email_verification': m0003,
  '2026_11_25_0001_data_exports': m0004,
  '2026_11_26_0001_kit_operator_audit': kitOperatorAuditMigration,
  '2026_11_26_0002_operators_claims': m0005,
  '2026_11_29_0001_handle_history': m0006,
  '2026_11_29_0002_claim_second_approval': m0007,
  '2026_11_29_0003_kit_mail_quota': kitMailQuotaMigration,
};
