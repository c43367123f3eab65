import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from './event-store.js';
import { sql } from 'kysely';
import { copyRows } from './copy-rows.js';
import { batchedApply, insertRowsAsJson, type BulkWriter, type Projection } from './projection.js';
import { rebuildProjections } from './replay.js';
import { infraGate, postgresServerUrl } from '../testing/infra.js';
import { counterFixture, counterIntegration, counterProjection, metadata, silentLog, totalOf, type CounterDB, type KitFixture } from '../test/fixture.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

/** The counter projection, with a gate the rebuild stops at (inside its apply transaction) until the test opens it. */
function gatedCounters() {
  let armed = false;
  let reached!: () => void;
  const atGate = new Promise<void>((resolve) => (reached = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const projection: Projection<CounterDB> = {
    ...counterProjection,
    async apply(trx, event) {
      if (armed) {
        armed = false;
        reached();
        await gate;
      }
      await counterProjection.apply(trx, event);
    },
  };
  return { projection, arm: () => (armed = true), atGate, open };
}

async function snapshot(fx: KitFixture) {
  return fx.database.db.selectFrom('counters').selectAll().orderBy('id').execute();
}

describe.runIf(run)('online projection rebuild on real Postgres', () => {
  let fx: KitFixture;
  beforeAll(async () => {
    fx = await counterFixture();
  });
  afterAll(async () => fx?.close());

  it('serves reads and writes while it rebuilds and ends with the rows before plus the writes made during it', async () => {
    const gated = gatedCounters();
    const store = new EventStore({ database: fx.database, context: 'support', projections: [gated.projection], toIntegration: counterIntegration });
    const ids = Array.from({ length: 40 }, () => randomUUID());
    for (const [i, id] of ids.entries()) {
      for (let v = 1; v <= 3; v += 1) {
        await store.append({ streamId: `counter-${id}`, expectedVersion: v - 1, events: [{ type: 'Incremented', data: { by: i + v } }], metadata });
      }
    }
    const before = await snapshot(fx);
    expect(before).toHaveLength(40);

    // Small batches so the rebuild has many of them; the gate holds it in the middle of its load.
    gated.arm();
    const rebuilding = rebuildProjections(store, silentLog, { batchSize: 20 });
    await gated.atGate;

    // While the rebuild is held, reads and writes complete: nothing of theirs waits for it (a wait would hang here).
    const reads = await Promise.all(ids.map((id) => totalOf(fx.database.db, id)));
    expect(reads).toEqual(ids.map((id) => Number(before.find((r) => r.id === id)!.total)));
    const fresh = randomUUID();
    await store.append({ streamId: `counter-${fresh}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 7 } }], metadata });
    await store.append({ streamId: `counter-${ids[0]}`, expectedVersion: 3, events: [{ type: 'Incremented', data: { by: 100 } }], metadata });
    expect(await totalOf(fx.database.db, fresh)).toBe(7);

    // Writers keep going after the gate opens, through the catch-up and the swap.
    let writing = true;
    const written: number[] = [];
    const writer = (async () => {
      let version = 0;
      const id = randomUUID();
      while (writing || version < 5) {
        await store.append({ streamId: `counter-${id}`, expectedVersion: version, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
        version += 1;
        written.push(version);
      }
      return id;
    })();
    gated.open();
    const applied = await rebuilding;
    writing = false;
    const writerId = await writer;
    expect(applied).toBeGreaterThanOrEqual(120);

    const after = await snapshot(fx);
    const expected = [
      ...before.map((r) => (r.id === ids[0] ? { ...r, total: Number(r.total) + 100, version: 4 } : { ...r, total: Number(r.total) })),
      { id: fresh, total: 7, version: 1 },
      { id: writerId, total: written.length, version: written.length },
    ].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    expect(after.map((r) => ({ ...r, total: Number(r.total) }))).toEqual(expected);

    // The rebuilt rows are the ones a rebuild from scratch gives, and the swapped-in table keeps its key.
    const plain = new EventStore({ database: fx.database, context: 'support', projections: [counterProjection], toIntegration: counterIntegration });
    await rebuildProjections(plain, silentLog);
    expect((await snapshot(fx)).map((r) => ({ ...r, total: Number(r.total) }))).toEqual(expected);
    await expect(
      fx.database.db.insertInto('counters').values({ id: fresh, total: 1, version: 1 }).execute(),
    ).rejects.toThrow(/duplicate key/);
  });

  it('writes the rows of streams first seen in a batch by COPY (ADR 0039) and ends with the rows live appends made', async () => {
    const writers: BulkWriter[] = [];
    const batched: Projection<CounterDB> = {
      ...counterProjection,
      applyBatch: async (trx, events, bulk) => {
        if (bulk) writers.push(bulk);
        await batchedApply<CounterDB>({
          relevant: (event) => event.type === 'Incremented',
          rowOf: (event) =>
            event.streamVersion === 1
              ? { key: event.streamId.slice('counter-'.length), row: { id: event.streamId.slice('counter-'.length), total: (event.data as { by: number }).by, version: 1 } }
              : null,
          insert: (t, rows) => insertRowsAsJson(t, 'counters', rows, sql`ON CONFLICT (id) DO NOTHING`),
          apply: (t, event) => counterProjection.apply(t, event),
          newRows: { table: 'counters', createsRow: (event) => event.streamVersion === 1 },
        })(trx, events, bulk);
      },
    };
    const store = new EventStore({ database: fx.database, context: 'support', projections: [counterProjection], toIntegration: counterIntegration });
    for (let i = 0; i < 30; i += 1) {
      const id = randomUUID();
      for (let v = 1; v <= 1 + (i % 3); v += 1) {
        await store.append({ streamId: `counter-${id}`, expectedVersion: v - 1, events: [{ type: 'Incremented', data: { by: i + v } }], metadata });
      }
    }
    const live = await snapshot(fx);
    await fx.database.db.updateTable('counters').set({ total: -1 }).execute();
    const rebuilt = new EventStore({ database: fx.database, context: 'support', projections: [batched], toIntegration: counterIntegration });
    await rebuildProjections(rebuilt, silentLog, { batchSize: 25 });
    expect(await snapshot(fx)).toEqual(live);
    // The load's batches got the COPY writer, not the one of plain INSERTs.
    expect(writers.length).toBeGreaterThan(1);
    expect(writers[0]!.via).toBe('copy');
  });

  it('copies rows with the values insertRowsAsJson writes: text that needs escaping, nulls, booleans, numbers, jsonb, times', async () => {
    await sql`CREATE TABLE copy_check (id int PRIMARY KEY, body text, flag boolean, n numeric, doc jsonb, at timestamptz)`.execute(fx.database.db);
    const text = 'tab\there, a backslash \\ and \\N, new\nline\r\n“ü”';
    const row = (id: number) => ({ id, body: id % 2 ? text : null, flag: id % 2 === 0, n: (id % 10) * 1.5, doc: { tags: ['a\tb', 'c'], at: null }, at: new Date(Date.UTC(2026, 10, 23, 7, id % 10)).toISOString() });
    const rows = [1, 2, 3].map(row);
    const again = [11, 12, 13].map(row);
    await fx.database.withConnection!(async (_db, client) => {
      await client.query('SET search_path TO support, public');
      await copyRows(client, 'copy_check', rows);
    });
    await insertRowsAsJson(fx.database.db, 'copy_check', again);
    const read = await sql<{ id: number; body: string | null; flag: boolean; n: string; doc: unknown; at: Date }>`SELECT * FROM copy_check ORDER BY id`.execute(fx.database.db);
    const byId = new Map(read.rows.map((r) => [r.id, { ...r, id: r.id % 10 }]));
    for (const id of [1, 2, 3]) expect(byId.get(id)).toEqual(byId.get(id + 10));
    expect(byId.get(1)!.body).toBe(rows[0]!.body);
    await sql`DROP TABLE copy_check`.execute(fx.database.db);
  });

  it('refuses a second rebuild of the same schema while one runs', async () => {
    const gated = gatedCounters();
    const store = new EventStore({ database: fx.database, context: 'support', projections: [gated.projection], toIntegration: counterIntegration });
    gated.arm();
    const first = rebuildProjections(store, silentLog, { batchSize: 10 });
    await gated.atGate;
    await expect(rebuildProjections(store, silentLog)).rejects.toThrow(/already running/);
    gated.open();
    await first;
  });
});
