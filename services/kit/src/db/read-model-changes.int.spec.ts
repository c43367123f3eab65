import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyOnce } from '../events/consumer.js';
import { EventStore } from '../events/event-store.js';
import { rebuildProjections } from '../events/replay.js';
import { ReadCache } from '../http/read-cache.js';
import { eventually, infraGate, postgresServerUrl } from '../testing/infra.js';
import { counterFixture, counterIntegration, counterProjection, metadata, silentLog, type CounterDB, type KitFixture } from '../test/fixture.js';
import { connectPostgres, type Database } from './database.js';
import { readModelChanges } from './read-model-changes.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

const increment = (streamId: string, expectedVersion = 0) => ({
  streamId,
  expectedVersion,
  events: [{ type: 'Incremented', data: { by: 1 } }],
  metadata,
});

describe.runIf(run)('read-model changes (ADR 0040) on real Postgres', () => {
  let fx: KitFixture;
  /** The same schema through a handle that hears no NOTIFY: what it hears comes from this process's commits alone. */
  let deaf: Database<CounterDB>;
  let deafStore: EventStore<CounterDB>;
  /** Another instance: its own pool and listening connection on the same database. */
  let other: Database<CounterDB>;
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    fx = await counterFixture();
    deaf = { ...fx.database, listen: async () => async () => {} };
    deafStore = new EventStore({ database: deaf, context: 'support', projections: [counterProjection], toIntegration: counterIntegration });
    other = connectPostgres<CounterDB>({ connectionString: fx.testDb.url, schema: 'support', max: 2 });
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    await other?.close();
    await fx?.close();
  });

  const counting = async (database: Database<CounterDB>) => {
    const heard = { n: 0 };
    stops.push(await readModelChanges(database).subscribe(() => void (heard.n += 1)));
    heard.n = 0; // the catch-up call once listening
    return heard;
  };

  it("tells this process's listeners when an append commits — by the time append() returns, never before, never on rollback", async () => {
    const heard = await counting(deaf);
    await deafStore.append(increment(`counter-${randomUUID()}`));
    expect(heard.n).toBe(1);

    const streamId = `counter-${randomUUID()}`;
    await deaf.db.transaction().execute(async (trx) => {
      await deafStore.appendWithin(trx, increment(streamId));
      expect(heard.n).toBe(1); // not committed yet
    });
    expect(heard.n).toBe(2);

    await expect(
      deaf.db.transaction().execute(async (trx) => {
        await deafStore.appendWithin(trx, increment(`counter-${randomUUID()}`));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(heard.n).toBe(2);
  });

  it("tells other instances through NOTIFY: an append's, a consumer effect's (not a duplicate's) and a rebuild's swap", async () => {
    const heard = await counting(other);
    await fx.store.append(increment(`counter-${randomUUID()}`));
    await eventually(async () => heard.n >= 1, 2_000);

    const envelope = { id: randomUUID(), type: 'Anything', version: 1, streamId: 's', streamVersion: 1, occurredAt: new Date().toISOString(), correlationId: 'c', causationId: null, data: {} };
    const local = await counting(deaf);
    const before = heard.n;
    expect(await applyOnce(deaf, 'test--changes', envelope, async () => {})).toBe(true);
    expect(local.n).toBe(1);
    await eventually(async () => heard.n > before, 2_000);
    expect(await applyOnce(deaf, 'test--changes', envelope, async () => {})).toBe(false);
    expect(local.n).toBe(1);

    const beforeRebuild = heard.n;
    await rebuildProjections(deafStore, silentLog);
    expect(local.n).toBe(2);
    await eventually(async () => heard.n > beforeRebuild, 2_000);
  });

  it("empties another instance's read cache after an append here", async () => {
    const cache = new ReadCache<string>({ maxAgeMs: 60_000 });
    stops.push(await cache.subscribe(other));
    await cache.through('k', async () => 'before');
    const generation = cache.generation;
    await fx.store.append(increment(`counter-${randomUUID()}`));
    await eventually(async () => cache.generation > generation, 2_000);
    expect(cache.get('k')).toBeUndefined();
  });
});
