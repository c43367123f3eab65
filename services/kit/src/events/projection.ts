import type { Kysely } from 'kysely';
import type { KitTables } from '../db/schema.js';
import type { RecordedEvent } from './types.js';

/** A read model updated in the append's transaction, and rebuildable from the event store. */
export interface Projection<DB = KitTables> {
  name: string;
  /** Tables this projection owns; emptied before a rebuild. */
  tables: string[];
  /** Must be idempotent per event (rebuilds and retries). */
  apply(trx: Kysely<DB>, event: RecordedEvent): Promise<void>;
  /**
   * Optional, for rebuilds: applies a run of events (in order) with fewer round trips. Must leave the same rows as
   * calling `apply` for each of them.
   */
  applyBatch?(trx: Kysely<DB>, events: RecordedEvent[]): Promise<void>;
}
