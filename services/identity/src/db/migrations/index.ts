import type { Migration } from 'kysely';
import { kitIdempotencyMigration } from '@ques/kit';
import * as m0001 from './0001_identity.js';
import * as m0002 from './0002_avatars_resets_personal_data.js';

/** Explicit, ordered; frozen once merged. */
export const identityMigrations: Record<string, Migration> = {
  '2026_11_21_0001_identity': m0001,
  '2026_11_21_0002_avatars_resets_personal_data': m0002,
  '2026_11_23_0001_kit_idempotency': kitIdempotencyMigration,
};
