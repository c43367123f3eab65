import type { Migration } from 'kysely';
import * as m0001 from './0001_support.js';

/**
 * Explicit, ordered; each file is frozen once merged: it holds its DDL as written that day and imports no live code
 * (`migrations.unit.spec.ts` keeps the SQL each one runs). The kit's own tables come first (`kitMigrations`).
 */
export const supportMigrations: Record<string, Migration> = {
  '2026_11_21_0001_support': m0001,
};
