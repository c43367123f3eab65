import type { Migration } from 'kysely';
import { kitIdempotencyMigration, kitOperatorAuditMigration, kitRevocationsMigration } from '@ques/kit/migrations';
import * as m0001 from './0001_payments.js';

/**
 * Explicit, ordered; each file is frozen once merged: it holds its DDL as written that day and imports no live code
 * (`migrations.unit.spec.ts` keeps the SQL each one runs). The kit's event-store tables come first (`kitMigrations`);
 * its other tables are frozen files too, listed here from `@ques/kit/migrations`.
 */
export const paymentsMigrations: Record<string, Migration> = {
  '2026_11_22_0001_payments': m0001,
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_23_0002_kit_revocations': kitRevocationsMigration,
  // Issue 18: the operators' audit read model (with operatorAuditProjection).
  '2026_11_28_0001_kit_operator_audit': kitOperatorAuditMigration,
};
