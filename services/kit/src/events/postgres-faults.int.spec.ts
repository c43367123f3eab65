import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Subscription } from '../bus/bus.js';
import { NatsEventBus } from '../bus/nats-bus.js';
import { isConnectionLoss } from '../db/connection-errors.js';
import { counterFixture, metadata, silentLog, type KitFixture, type CounterDB } from '../test/fixture.js';
import { terminateBackends } from '../testing/faults.js';
import { eventually, infraGate, postgresServerUrl } from '../testing/infra.js';
import { deleteNamespaceStreams, natsTestUrl, uniqueNamespace } from '../testing/nats.js';
import { startConsumer } from './consumer.js';
import { OutboxRelay } from './outbox-relay.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.runIf(run)('outbox relay and consumers while Postgres terminates their connections', () => {
  let fx: KitFixture;
  let bus: NatsEventBus;
  let relay: OutboxRelay<CounterDB>;
  let subscription: Subscription;
  const namespace = uniqueNamespace('pgfaults');
  const crashes: unknown[] = [];
  const onCrash = (err: unknown) => void crashes.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    fx = await counterFixture();
    bus = await NatsEventBus.connect({ servers: natsUrl!, name: 'pg-faults-test', namespace, log: silentLog });
    await bus.ensureStreams(['support']);
    // No fallback poll worth the name: after the faults only NOTIFY (a LISTEN connection that came back) or a
    // regained leadership can move the relay.
    relay = new OutboxRelay({ database: fx.database, bus, log: silentLog, pollIntervalMs: 60_000, leaderRetryMs: 500 });
    await relay.start();
    subscription = await startConsumer(bus, fx.database, silentLog, {
      durable: 'test--pg-faults',
      context: 'support',
      backoffMs: [100, 300, 1_000],
      handlers: {
        Incremented: {
          schema: z.object({ by: z.number() }),
          effect: async (trx, env) => {
            await trx.insertInto('seen').values({ event_id: env.id, value: env.data.by }).execute();
          },
        },
      },
    });
  });
  afterAll(async () => {
    process.off('uncaughtException', onCrash);
    await subscription?.stop();
    await relay?.stop();
    await bus?.close();
    if (natsUrl) await deleteNamespaceStreams(natsUrl, namespace);
    await fx?.close();
  });

  const count = async (query: string) => Number((await sql<{ n: number }>`${sql.raw(query)}`.execute(fx.database.db)).rows[0]!.n);
  const append = async () => {
    const [event] = await fx.store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    return event!.eventId;
  };

  it('regain leadership, LISTEN again and deliver every event once', { timeout: 60_000 }, async () => {
    const appended: string[] = [];
    const failures: unknown[] = [];
    let writing = true;
    const writer = async () => {
      while (writing) {
        try {
          appended.push(await append());
        } catch (err) {
          failures.push(err);
        }
        await sleep(5);
      }
    };
    const writers = Array.from({ length: 5 }, writer);
    await eventually(async () => relay.isLeader);
    let terminated = 0;
    for (let round = 0; round < 5; round += 1) {
      await sleep(400);
      terminated += await terminateBackends(fx.testDb.url);
    }
    await sleep(200);
    writing = false;
    await Promise.all(writers);

    expect(crashes).toEqual([]);
    expect(terminated).toBeGreaterThan(0);
    expect(failures.filter((err) => !isConnectionLoss(err)).map(String)).toEqual([]);
    expect(appended.length).toBeGreaterThan(0);

    // The relay took the lead again (its lock's session died with the rest) and published everything…
    await eventually(async () => relay.isLeader && (await count('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL')) === 0, 20_000);
    // …and the consumer applied every committed event exactly once, parking none.
    await eventually(async () => (await count('SELECT count(*)::int AS n FROM seen')) >= appended.length, 20_000);
    const seen = new Set((await fx.database.db.selectFrom('seen').select('event_id').execute()).map((r) => r.event_id));
    expect(appended.filter((id) => !seen.has(id))).toEqual([]);
    expect(await count('SELECT count(*)::int AS n FROM seen WHERE event_id NOT IN (SELECT event_id::text FROM outbox)')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM dead_letters')).toBe(0);

    // The LISTEN connection came back (it reconnects 1 s after losing its session): a new event is published on its
    // NOTIFY, long before the 60 s poll.
    await sleep(2_500);
    const late = await append();
    await eventually(async () => seen.has(late) || (await fx.database.db.selectFrom('seen').select('event_id').where('event_id', '=', late).executeTakeFirst()), 5_000);
    expect(crashes).toEqual([]);
  });
});
