import type { Migration } from 'kysely';
import * as m0001 from './0001_payments.js';

/** Explicit, ordered; frozen once merged. */
export const paymentsMigrations: Record<string, Migration> = {
  '2026_11_22_0001_payments': m0001,
};
