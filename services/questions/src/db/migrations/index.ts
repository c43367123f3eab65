import type { Migration } from 'kysely';
import { kitIdempotencyMigration, kitRevocationsMigration } from '@ques/kit';
import * as m0001 from './0001_questions.js';
import * as m0002 from './0002_personal_data_keys.js';

/** Explicit, ordered; frozen once merged. */
export const questionsMigrations: Record<string, Migration> = {
  '2026_11_22_0001_questions': m0001,
  '2026_11_22_0002_personal_data_keys': m0002,
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
  '2026_11_23_0002_kit_revocations': kitRevocationsMigration,
};
