import type { Migration } from 'kysely';
import * as m0000_0001 from './0000_0001_kit_event_store.js';

/**
 * The kit's tables, created in every service schema before the service's own migrations (their names sort first).
 * Explicit and ordered; each file is frozen once merged — a later change to the kit never changes what an old
 * migration does (`migrations.unit.spec.ts` holds the SQL each one runs).
 */
export const kitMigrations: Record<string, Migration> = {
  '0000_0001_kit_event_store': m0000_0001,
};
