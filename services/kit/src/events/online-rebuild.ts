import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { KitTables } from '../db/schema.js';
import { notifyReadModel, readModelChanges } from '../db/read-model-changes.js';
import { type EventStore } from './event-store.js';
import type { RecordedEvent } from './types.js';
import { copyRows } from './copy-rows.js';
import { type BulkWriter, type Projection } from './projection.js';

import { applyProjections } from './apply-projections.js';
import type { RebuildOptions, RebuildProgress } from './replay.js';

// The online rebuild of a store's projections on Postgres (ADR 0026, 0041): shadow tables, catch-up and the swap.
// `rebuildProjections` (./replay.ts) chooses it.

/** How many catch-up passes run outside the swap before it is tried; each pass takes what arrived meanwhile. */
const CATCH_UP_PASSES = 5;
const SWAP_ATTEMPTS = 5;
/** Connections that build the deferred indexes side by side. */
const INDEX_LANES = 2;
/** Connections that apply a batch's events of stream-local projections side by side, split by stream (ADR 0041). */
const APPLY_LANES = 2;
/** A hole in the positions wider than this is taken as a jump of the sequence, not as transactions in flight. */
const MAX_GAP = 10_000;

type Tx = Kysely<KitTables>;

const ident = (name: string) => sql.id(name);
const qualified = (schema: string, table: string) => sql.id(schema, table);

export class OnlineRebuild<DB extends KitTables> {
  private readonly schema: string;
  private readonly shadow: string;
  private readonly retired: string;
  private readonly tables: string[];
  private readonly batchSize: number;
  private readonly lockTimeoutMs: number;
  private readonly db: Tx;
  /** Last position read; positions at or below it that were missing (transactions in flight then). */
  private after = 0;
  private readonly gaps = new Set<number>();
  private applied = 0;
  private lastPosition = 0;
  private started = 0;
  /** Non-unique indexes, built once the bulk of the rows is in (cheaper than maintaining them row by row). */
  private deferredIndexes: string[] = [];

  constructor(
    private readonly store: EventStore<DB>,
    private readonly log: Logger,
    private readonly opts: RebuildOptions,
  ) {
    this.schema = store.database.schema;
    this.shadow = `${this.schema}__rebuild`;
    this.retired = `${this.schema}__retired`;
    this.tables = [...new Set(store.projections.flatMap((p) => p.tables))];
    this.batchSize = opts.batchSize ?? 5000;
    this.lockTimeoutMs = opts.lockTimeoutMs ?? 2000;
    this.db = store.db as unknown as Tx;
  }

  async run(): Promise<number> {
    const lead = await this.store.database.tryLead('rebuild-projections');
    if (!lead) throw new Error(`A rebuild of ${this.schema}'s projections is already running`);
    try {
      this.started = performance.now();
      const last = await sql<{
        n: string | null;
      }>`SELECT max(global_position)::text AS n FROM ${qualified(this.schema, 'events')}`.execute(this.db);
      this.lastPosition = Number(last.rows[0]?.n ?? 0);
      await this.createShadow();
      await this.load();
      await this.buildDeferredIndexes();
      for (let pass = 0; pass < CATCH_UP_PASSES; pass += 1) {
        if ((await this.catchUp(this.db, 'catch-up')) < this.batchSize / 10) break;
      }
      await this.swap();
      return this.applied;
    } catch (error) {
      await sql`DROP SCHEMA IF EXISTS ${ident(this.shadow)} CASCADE`.execute(this.db).catch(() => {});
      throw error;
    } finally {
      await lead.release();
    }
  }

  private async createShadow(): Promise<void> {
    const { db, schema, shadow } = this;
    await sql`DROP SCHEMA IF EXISTS ${ident(shadow)} CASCADE`.execute(db);
    await sql`DROP SCHEMA IF EXISTS ${ident(this.retired)} CASCADE`.execute(db);
    await sql`CREATE SCHEMA ${ident(shadow)}`.execute(db);
    for (const table of this.tables) {
      const live = qualified(schema, table);
      await sql`CREATE TABLE ${qualified(shadow, table)} (LIKE ${live} INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMMENTS)`.execute(
        db,
      );
      // Keys and indexes under their own names (names are per schema), so the swapped-in table looks as migrated.
      const constraints = await sql<{ name: string; def: string }>`
        SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = ${`${schema}.${table}`}::regclass AND contype IN ('p', 'u', 'x') ORDER BY conname`.execute(
        db,
      );
      for (const c of constraints.rows) {
        await sql`ALTER TABLE ${qualified(shadow, table)} ADD CONSTRAINT ${ident(c.name)} ${sql.raw(c.def)}`.execute(
          db,
        );
      }
      const indexes = await sql<{ def: string; unique: boolean }>`
        SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisunique AS unique FROM pg_index i
        WHERE i.indrelid = ${`${schema}.${table}`}::regclass
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
        ORDER BY i.indexrelid`.execute(db);
      for (const index of indexes.rows) {
        const statement = index.def.replace(
          / ON (ONLY )?\S+ USING /,
          ` ON ${quoteIdent(shadow)}.${quoteIdent(table)} USING `,
        );
        if (index.unique) await sql.raw(statement).execute(db);
        else this.deferredIndexes.push(statement);
      }
    }
  }

  /**
   * Builds the deferred indexes on INDEX_LANES connections at once (CREATE INDEX takes a SHARE lock, so several may
   * build on one table), the GIN ones (the slowest: trigrams, full text) first (ADR 0039).
   */
  private async buildDeferredIndexes(): Promise<void> {
    const queue = [...this.deferredIndexes].sort(
      (a, b) => Number(/ USING gin /i.test(b)) - Number(/ USING gin /i.test(a)),
    );
    const lane = async () => {
      for (let statement = queue.shift(); statement !== undefined; statement = queue.shift())
        await sql.raw(statement).execute(this.db);
    };
    await Promise.all(Array.from({ length: Math.min(INDEX_LANES, queue.length) }, lane));
  }

  /** Applies a run of events to the shadow tables inside `trx` (whose search_path puts the shadow schema first). */
  private async applyToShadow(trx: Tx, events: RecordedEvent[], bulk?: BulkWriter): Promise<void> {
    await applyProjections(this.store, trx as unknown as Kysely<DB>, events, bulk);
    this.applied += events.length;
  }

  private shadowFirst(trx: Tx) {
    return sql`SELECT set_config('search_path', ${`${quoteIdent(this.shadow)}, ${quoteIdent(this.schema)}, public`}, true)`.execute(
      trx,
    );
  }

  /** Notes the positions skipped between the last one read and these events (their transactions had not committed). */
  private advance(events: RecordedEvent[]): void {
    for (const event of events) {
      const p = event.globalPosition;
      if (p > this.after) {
        if (p - this.after - 1 <= MAX_GAP) for (let q = this.after + 1; q < p; q += 1) this.gaps.add(q);
        this.after = p;
      } else this.gaps.delete(p);
    }
  }

  private report(phase: RebuildProgress['phase']): void {
    const seconds = (performance.now() - this.started) / 1000;
    const eventsPerSec = seconds > 0 ? this.applied / seconds : 0;
    const left = Math.max(0, this.lastPosition - this.after);
    const progress: RebuildProgress = {
      applied: this.applied,
      position: this.after,
      lastPosition: this.lastPosition,
      eventsPerSec: Math.round(eventsPerSec),
      etaSec: eventsPerSec > 0 ? Math.round(left / eventsPerSec) : null,
      phase,
    };
    this.opts.onProgress?.(progress);
    this.log.info(progress, 'rebuilding projections');
  }

  /**
   * The bulk: reads batch n+1 (on its own connection) while batch n is applied, one transaction per batch and lane;
   * new rows go in by COPY (ADR 0039). The stream-local projections' events are split by stream over APPLY_LANES
   * connections applying at once (a stream always on the same lane; every lane finishes batch n before any starts
   * n+1); the other projections then apply the whole batch in order, on one connection, once the lanes committed
   * (so they see every row the batch made). ADR 0041.
   */
  private async load(): Promise<void> {
    const { database } = this.store;
    const withConnection = database.withConnection?.bind(database);
    if (!withConnection) return this.loadOn(this.db);
    const local = this.store.projections.filter((p) => p.streamLocal);
    const laneCount = local.length > 0 ? Math.max(1, this.opts.applyLanes ?? APPLY_LANES) : 1;
    const lanes: Lane[] = [];
    const open = async (): Promise<void> => {
      if (lanes.length === laneCount) {
        await withConnection((_db, reader) => this.loadInLanes(reader, lanes, local));
        return;
      }
      await withConnection(async (db, client) => {
        lanes.push({
          db: db as unknown as Tx,
          bulk: { via: 'copy', insertNew: (table, rows) => copyRows(client, table, rows) },
        });
        await open();
      });
    };
    await open();
  }

  private async loadInLanes(reader: pg.ClientBase, lanes: Lane[], local: Projection<DB>[]): Promise<void> {
    const others = this.store.projections.filter((p) => !p.streamLocal);
    const read = () => this.store.readAllFrom(reader, this.after, this.batchSize);
    let next = read();
    for (;;) {
      const events = await next;
      if (events.length === 0) return;
      this.advance(events);
      next = read();
      // A read failing while the apply runs must not go unhandled; it is awaited (and thrown) on the next turn.
      next.catch(() => {});
      if (local.length > 0) {
        const split = splitByStream(events, lanes.length);
        await Promise.all(lanes.map((lane, i) => this.applyInTransaction(lane, split[i]!, local)));
      }
      if (others.length > 0) await this.applyInTransaction(lanes[0]!, events, others);
      this.applied += events.length;
      this.report('load');
    }
  }

  private async applyInTransaction(
    lane: Lane,
    events: RecordedEvent[],
    projections: Projection<DB>[],
  ): Promise<void> {
    if (events.length === 0) return;
    await lane.db.transaction().execute(async (trx) => {
      await this.shadowFirst(trx);
      // The shadow tables are nobody's until the swap, which commits synchronously: a crash loses only the rebuild.
      await sql`SET LOCAL synchronous_commit = off`.execute(trx);
      await applyProjections(this.store, trx as unknown as Kysely<DB>, events, lane.bulk, projections);
    });
  }

  /** The load without a raw connection (not Postgres's pool): one connection, plain inserts. */
  private async loadOn(db: Tx): Promise<void> {
    let next = this.store.readAll(this.after, this.batchSize);
    for (;;) {
      const events = await next;
      if (events.length === 0) return;
      this.advance(events);
      next = this.store.readAll(this.after, this.batchSize);
      next.catch(() => {});
      await db.transaction().execute(async (trx) => {
        await this.shadowFirst(trx);
        await sql`SET LOCAL synchronous_commit = off`.execute(trx);
        await this.applyToShadow(trx, events);
      });
      this.report('load');
    }
  }

  /** Applies the events committed since the last read (new ones and those of the gaps); returns how many. */
  private async catchUp(executor: Tx, phase: RebuildProgress['phase']): Promise<number> {
    let count = 0;
    const run = async (trx: Tx) => {
      await this.shadowFirst(trx);
      const late = await this.store.readPositions([...this.gaps], trx as unknown as Kysely<DB>);
      this.advance(late);
      await this.applyToShadow(trx, late);
      count += late.length;
      for (;;) {
        const events = await this.store.readAll(this.after, this.batchSize, trx as unknown as Kysely<DB>);
        if (events.length === 0) break;
        this.advance(events);
        await this.applyToShadow(trx, events);
        count += events.length;
      }
    };
    if (executor === this.db) await this.db.transaction().execute(run);
    else await run(executor);
    if (count > 0) this.report(phase);
    return count;
  }

  /**
   * Locks the live tables (in the order the projections write them, as appends do), applies the last events and
   * swaps. Holding the locks means every append that wrote the live tables has committed (its events are read
   * here); an append still to write them waits and then writes the swapped-in tables.
   */
  private async swap(): Promise<void> {
    const { db, schema, shadow, retired, tables } = this;
    await sql`CREATE SCHEMA ${ident(retired)}`.execute(db);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await db.transaction().execute(async (trx) => {
          await sql`SELECT set_config('lock_timeout', ${`${this.lockTimeoutMs}ms`}, true)`.execute(trx);
          if (tables.length > 0) {
            await sql`LOCK TABLE ${sql.join(tables.map((t) => qualified(schema, t)))} IN ACCESS EXCLUSIVE MODE`.execute(
              trx,
            );
          }
          await this.catchUp(trx, 'swap');
          for (const table of tables) {
            await sql`ALTER TABLE ${qualified(schema, table)} SET SCHEMA ${ident(retired)}`.execute(trx);
            await sql`ALTER TABLE ${qualified(shadow, table)} SET SCHEMA ${ident(schema)}`.execute(trx);
            // Sequences owned by the old table's columns would go with it: they now belong to the new one.
            const owned = await sql<{ seq: string; col: string }>`
              SELECT s.oid::regclass::text AS seq, a.attname AS col FROM pg_depend d
              JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
              JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
              WHERE d.refobjid = ${`${retired}.${table}`}::regclass AND d.deptype = 'a'`.execute(trx);
            for (const o of owned.rows) {
              await sql`ALTER SEQUENCE ${sql.raw(o.seq)} OWNED BY ${qualified(schema, table)}.${ident(o.col)}`.execute(
                trx,
              );
            }
          }
          // The swapped-in tables are a new read model: read caches drop what they hold (ADR 0040).
          await sql`SELECT ${notifyReadModel(this.store.database)}`.execute(trx);
          await readModelChanges(this.store.database).changedWithin(trx);
        });
        break;
      } catch (error) {
        // 55P03: lock_not_available (a long read or write held a live table); catch up and try again.
        if ((error as { code?: string }).code !== '55P03' || attempt >= SWAP_ATTEMPTS) throw error;
        this.log.warn(
          { attempt },
          'rebuild swap could not lock the live tables in time; catching up and retrying',
        );
        await this.catchUp(db, 'catch-up');
      }
    }
    await sql`DROP SCHEMA ${ident(retired)} CASCADE`.execute(db);
    await sql`DROP SCHEMA ${ident(shadow)} CASCADE`.execute(db);
  }
}

interface Lane {
  db: Tx;
  bulk: BulkWriter;
}

/** The events split into `lanes` runs by a hash of their stream id, each run in the events' order. */
export function splitByStream(events: readonly RecordedEvent[], lanes: number): RecordedEvent[][] {
  const runs: RecordedEvent[][] = Array.from({ length: lanes }, () => []);
  if (lanes === 1) {
    runs[0]!.push(...events);
    return runs;
  }
  for (const event of events) runs[streamHash(event.streamId) % lanes]!.push(event);
  return runs;
}

/** FNV-1a of a stream id's UTF-16 code units: cheap, and the same lane for a stream in every batch. */
function streamHash(streamId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < streamId.length; i += 1) hash = Math.imul(hash ^ streamId.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
