import { sql, type Kysely, type RawBuilder } from 'kysely';
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

/**
 * One multi-row INSERT with a single parameter (ADR 0026): the rows go as one JSON array, expanded by
 * `jsonb_populate_recordset` against the table's own row type (during a rebuild, the shadow table's), so a batch of
 * thousands costs one short statement to parse instead of tens of thousands of parameters. Every row must have the
 * same keys; values are what `JSON.stringify` makes of them (ISO strings for timestamps; a jsonb column takes the
 * value itself, not a string of it). `onConflict` is appended (e.g. `ON CONFLICT (id) DO NOTHING`).
 */
export async function insertRowsAsJson(
  executor: Kysely<any>,
  table: string,
  rows: readonly Record<string, unknown>[],
  onConflict?: RawBuilder<unknown>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = sql.join(Object.keys(rows[0]!).map((c) => sql.id(c)));
  await sql`INSERT INTO ${sql.table(table)} (${columns})
    SELECT ${columns} FROM jsonb_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows)}::jsonb)
    ${onConflict ?? sql``}`.execute(executor);
}
