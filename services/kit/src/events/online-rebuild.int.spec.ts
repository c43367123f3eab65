import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStore } from './event-store.js';
import type { Projection } from './projection.js';
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
