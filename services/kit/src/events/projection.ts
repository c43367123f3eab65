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
   * calling `apply` for each of them. `bulk` takes rows that cannot exist yet (COPY in an online rebuild, ADR 0039).
   */
  applyBatch?(trx: Kysely<DB>, events: RecordedEvent[], bulk?: BulkWriter): Promise<void>;
  /**
   * The projection's rows are per stream (ADR 0041): an event reads and writes only rows made from its own stream's
   * events, in the projection's own tables. A rebuild's load may then apply it on several connections at once, each
   * taking the events of some streams (a stream's events always in order, on one of them). Otherwise it runs on one
   * connection, over every event of a batch in order, after the stream-local ones.
   */
  streamLocal?: boolean;
}

/** How a rebuild's batch writes rows that cannot be in their table yet (ADR 0039). */
export interface BulkWriter {
  /** How the rows go in. */
  readonly via: 'copy' | 'insert';
  /**
   * Adds rows none of which is in `table` yet (e.g. made by the first event of their stream), every row with the
   * same keys: `COPY … FROM STDIN` in an online rebuild on Postgres (`copyRows`), one `insertRowsAsJson` elsewhere.
   */
  insertNew(table: string, rows: readonly Record<string, unknown>[]): Promise<void>;
}

/** The `BulkWriter` without COPY: one multi-row INSERT per call in `trx`. */
export const insertingBulkWriter = (trx: Kysely<any>): BulkWriter => ({
  via: 'insert',
  insertNew: (table, rows) => insertRowsAsJson(trx, table, rows),
});

/**
 * One multi-row INSERT with a single parameter (ADR 0026): the rows go as one JSON array, expanded by
 * `json_populate_recordset` (plain `json`: read once, no binary form built) against the table's own row type (during
 * a rebuild, the shadow table's), so a batch of thousands costs one short statement to parse instead of tens of
 * thousands of parameters. Every row must have the
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
    SELECT ${columns} FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows)}::json)
    ${onConflict ?? sql``}`.execute(executor);
}

/** How a projection's rebuild batches group its events (see `batchedApply`). */
export interface BatchingSpec<DB> {
  /** Events of this projection; the others are skipped (they neither write nor break a run). */
  relevant(event: RecordedEvent): boolean;
  /** The row an event adds, keyed, or null to apply the event on its own with `apply`. */
  rowOf(event: RecordedEvent): { key: string; row: Record<string, unknown> } | null;
  /** Writes a run of rows (one statement, e.g. `insertRowsAsJson`); keys in a run are distinct. */
  insert(trx: Kysely<DB>, rows: Record<string, unknown>[]): Promise<void>;
  apply(trx: Kysely<DB>, event: RecordedEvent): Promise<void>;
  /** Rows per statement. Default 5,000. */
  maxRows?: number;
  /**
   * With `createsRow`, the rows of events for which it is true (their row cannot exist yet: the stream's first
   * event, say) go into `table` through the rebuild's `BulkWriter` (COPY) instead of `insert` (ADR 0039).
   */
  newRows?: { table: string; createsRow(event: RecordedEvent): boolean };
}

/**
 * An `applyBatch` from a spec (ADR 0026): consecutive events that add rows go in as one multi-row statement; any
 * other event of the projection first flushes the run, then applies on its own, so the rows end as `apply` per event
 * leaves them. A second event for a key already in the run flushes it first (one statement cannot touch a row twice).
 */
export function batchedApply<DB>(
  spec: BatchingSpec<DB>,
): (trx: Kysely<DB>, events: RecordedEvent[], bulk?: BulkWriter) => Promise<void> {
  const maxRows = spec.maxRows ?? 5_000;
  return async (trx, events, bulk) => {
    let pending = new Map<string, Record<string, unknown>>();
    /** Keys of pending rows that are new to the table (they go through `bulk`). */
    let fresh = new Set<string>();
    const flush = async () => {
      if (pending.size > 0) {
        if (fresh.size > 0 && bulk && spec.newRows) {
          const [created, others] = [[] as Record<string, unknown>[], [] as Record<string, unknown>[]];
          for (const [key, row] of pending) (fresh.has(key) ? created : others).push(row);
          await bulk.insertNew(spec.newRows.table, created);
          if (others.length > 0) await spec.insert(trx, others);
        } else await spec.insert(trx, [...pending.values()]);
      }
      pending = new Map();
      fresh = new Set();
    };
    for (const event of events) {
      if (!spec.relevant(event)) continue;
      const added = spec.rowOf(event);
      if (added) {
        if (pending.has(added.key)) await flush();
        pending.set(added.key, added.row);
        if (spec.newRows?.createsRow(event)) fresh.add(added.key);
        if (pending.size >= maxRows) await flush();
      } else {
        await flush();
        await spec.apply(trx, event);
      }
    }
    await flush();
  };
}

/** A projection's writes, one handler per event type it reads (the event's data typed by its type). */
export type EventHandlers<DB, E extends { type: string; data: unknown }> = {
  [K in E['type']]?: (
    trx: Kysely<DB>,
    data: Extract<E, { type: K }>['data'],
    event: RecordedEvent,
  ) => Promise<unknown>;
};

/**
 * A projection's `relevant` and `apply` from its handlers keyed by event type (issue 11): the events it reads are
 * exactly the ones it handles, so no list is kept beside a switch; any other event is skipped.
 */
export function eventHandlers<DB, E extends { type: string; data: unknown }>(handlers: EventHandlers<DB, E>) {
  const relevant = (event: Pick<RecordedEvent, 'type'>) => Object.hasOwn(handlers, event.type);
  return {
    relevant,
    apply: async (trx: Kysely<DB>, event: RecordedEvent): Promise<void> => {
      if (!relevant(event)) return;
      const handler = handlers[event.type as E['type']] as (
        trx: Kysely<DB>,
        data: unknown,
        e: RecordedEvent,
      ) => Promise<unknown>;
      await handler(trx, event.data, event);
    },
  };
}

/** For rebuilds (ADR 0026): the event type whose rows go in as one multi-row statement, its row's key, its row. */
export type RowBatch<DB, E extends { type: string; data: unknown }> = {
  [K in E['type']]: {
    type: K;
    key(data: Extract<E, { type: K }>['data']): string;
    row(data: Extract<E, { type: K }>['data'], event: RecordedEvent): Record<string, unknown>;
    /** Writes a run of rows (e.g. `insertRowsAsJson`); the type's handler must leave the same row. */
    insert(trx: Kysely<DB>, rows: Record<string, unknown>[]): Promise<void>;
  };
}[E['type']];

/**
 * A projection from its handlers (see `eventHandlers`), and with `batch` an `applyBatch` whose runs of that event type
 * go in as one statement (`batchedApply`); every other event of the projection as `apply` does it.
 */
export function handlerProjection<DB, E extends { type: string; data: unknown }>(spec: {
  name: string;
  tables: string[];
  handlers: EventHandlers<DB, E>;
  batch?: RowBatch<DB, E>;
}): Projection<DB> {
  const { relevant, apply } = eventHandlers<DB, E>(spec.handlers);
  const batch = spec.batch;
  return {
    name: spec.name,
    tables: spec.tables,
    apply,
    ...(batch && {
      applyBatch: batchedApply<DB>({
        relevant,
        rowOf: (event) =>
          event.type === batch.type
            ? { key: batch.key(event.data), row: batch.row(event.data, event) }
            : null,
        insert: (trx, rows) => batch.insert(trx, rows),
        apply,
      }),
    }),
  };
}
