import type { Migration } from 'kysely';
import * as m0001 from './0001_payments.js';

/**
 * Explicit, ordered; each file is frozen once merged: it holds its DDL as written that day and imports no live code
 * (`migrations.unit.spec.ts` keeps the SQL each one runs). The kit's own tables come first (`kitMigrations`).
 */
export const paymentsMigrations: Record<string, Migration> = {
  '2026_11_22_0001_payments': m0001,
};
