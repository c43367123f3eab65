import type { Migration } from 'kysely';
import { kitIdempotencyMigration, kitRevocationsMigration } from '@ques/kit';
import * as m0001 from './0001_payments.js';

/** Explicit, ordered; frozen once merged. */
export const paymentsMigrations: Record<string, Migration> = {
  '2026_11_22_0001_payments': m0001,
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_23_0002_kit_revocations': kitRevocationsMigration,
};
