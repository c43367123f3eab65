import type { Migration } from 'kysely';
import { kitIdempotencyMigration, kitRevocationsMigration } from '@ques/kit';
import * as m0001 from './0001_support.js';

/** Explicit, ordered; frozen once merged. */
export const supportMigrations: Record<string, Migration> = {
  '2026_11_21_0001_support': m0001,
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_23_0002_kit_revocations': kitRevocationsMigration,
};
