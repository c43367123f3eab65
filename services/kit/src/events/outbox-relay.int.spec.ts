import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBus } from '../bus/bus.js';
import { NatsEventBus } from '../bus/nats-bus.js';
import { deleteNamespaceStreams, natsTestUrl, uniqueNamespace } from '../testing/nats.js';
import { eventually, infraGate, postgresServerUrl } from '../testing/infra.js';
import { counterFixture, metadata, silentLog, type KitFixture } from '../test/fixture.js';
import { commitOrigin, fromOtherProcess } from '../db/commit-wakes.js';
import { outboxChannel } from './event-store.js';
import { OutboxRelay } from './outbox-relay.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

describe.runIf(run)('outbox relay on real Postgres and NATS JetStream', () => {
  let fx: KitFixture;
  let bus: NatsEventBus;
  const namespace = uniqueNamespace('relay');
  const received: string[] = [];

  beforeAll(async () => {
    fx = await counterFixture();
    bus = await NatsEventBus.connect({ servers: natsUrl!, name: 'relay-test', namespace, log: silentLog });
    await bus.ensureStreams(['support']);
    await bus.subscribe({
      durable: 'test--relay',
      context: 'support',
      subjects: ['ques.support.>'],
      handler: async (envelope) => void received.push(envelope.id),
      onPoison: async () => {},
    });
  });
  afterAll(async () => {
    await bus?.close();
    await deleteNamespaceStreams(natsUrl!, namespace);
    await fx?.close();
  });

  const unpublished = async () =>
    Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`.execute(fx.database.db)).rows[0]!.n);

  it('publishes a slow transaction that committed after a later one (never skips a late row)', async () => {
    const relay = new OutboxRelay({ database: fx.database, bus, log: silentLog, pollIntervalMs: 50 });
    await relay.start();
    const slowStream = `counter-${randomUUID()}`;
    const fastStream = `counter-${randomUUID()}`;

    let releaseSlow!: () => void;
    const slowMayCommit = new Promise<void>((r) => (releaseSlow = r));
    let slowInserted!: () => void;
    const slowHasPosition = new Promise<void>((r) => (slowInserted = r));
    // The slow transaction takes its outbox position first, then waits before committing.
    const slow = fx.database.db.transaction().execute(async (trx) => {
      const events = await fx.store.appendWithin(trx, { streamId: slowStream, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
      slowInserted();
      await slowMayCommit;
      return events;
    });
    await slowHasPosition;
    const [fast] = await fx.store.append({ streamId: fastStream, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    await eventually(async () => received.includes(fast!.eventId));

    releaseSlow();
    const [slowEvent] = await slow;
    await eventually(async () => received.includes(slowEvent!.eventId));
    const positions = await fx.database.db.selectFrom('outbox').select(['position', 'event_id']).where('event_id', 'in', [slowEvent!.eventId, fast!.eventId]).execute();
    const byId = Object.fromEntries(positions.map((p) => [p.event_id, Number(p.position)]));
    expect(byId[slowEvent!.eventId]).toBeLessThan(byId[fast!.eventId]!); // the late commit really had the earlier position
    expect(await unpublished()).toBe(0);
    await relay.stop();
  });

  it('publishes a commit made while a batch is in flight without waiting for that batch, and no row twice', async () => {
    // The first publish is held (as if its acks were slow); everything else goes straight to JetStream.
    const calls: string[][] = [];
    let releaseFirst!: () => void;
    const firstMayFinish = new Promise<void>((r) => (releaseFirst = r));
    const gated: EventBus = {
      publishWindow: bus.publishWindow,
      ensureStreams: (contexts) => bus.ensureStreams(contexts),
      publish: async (messages) => {
        calls.push(messages.map((m) => m.msgId));
        await bus.publish(messages);
        if (calls.length === 1) await firstMayFinish;
      },
      subscribe: (s) => bus.subscribe(s),
      watch: (s) => bus.watch(s),
      isHealthy: () => bus.isHealthy(),
      onReconnect: (listener) => bus.onReconnect(listener),
      close: async () => {},
    };
    const relay = new OutboxRelay({ database: fx.database, bus: gated, log: silentLog, pollIntervalMs: 60_000 });
    await relay.start();
    await eventually(async () => (await unpublished()) === 0);
    calls.length = 0;

    const [first] = await fx.store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    await eventually(async () => calls.length === 1);
    const [second] = await fx.store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    // Woken by the second commit, the relay reads and sends it while the first batch still waits (no 60 s poll).
    await eventually(async () => received.includes(second!.eventId), 3_000);
    expect(calls).toEqual([[first!.eventId], [second!.eventId]]);
    releaseFirst();
    await eventually(async () => (await unpublished()) === 0);
    expect(calls.flat().filter((id) => id === first!.eventId)).toHaveLength(1);
    await relay.stop();
  });

  it('lets only one of two relays on a database publish at a time', async () => {
    const a = new OutboxRelay({ database: fx.database, bus, log: silentLog, pollIntervalMs: 50, leaderRetryMs: 100 });
    const b = new OutboxRelay({ database: fx.database, bus, log: silentLog, pollIntervalMs: 50, leaderRetryMs: 100 });
    await a.start();
    await eventually(async () => a.isLeader);
    await b.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(b.isLeader).toBe(false);
    await a.stop();
    await eventually(async () => b.isLeader, 5000);
    await b.stop();
  });

  it('re-publishing after a crash between publish and mark-published stores each event once', async () => {
    const streamId = `counter-${randomUUID()}`;
    const events = await fx.store.append({
      streamId,
      expectedVersion: 0,
      events: Array.from({ length: 5 }, () => ({ type: 'Incremented', data: { by: 1 } })),
      metadata,
    });
    const ids = events.map((e) => e.eventId);
    const rows = await fx.database.db.selectFrom('outbox').select(['event_id', 'subject', 'envelope']).where('event_id', 'in', ids).orderBy('position').execute();
    // The "crashed" relay got as far as publishing; the rows are still unpublished.
    await bus.publish(rows.map((r) => ({ subject: r.subject, envelope: r.envelope, msgId: r.event_id })));
    expect(await unpublished()).toBe(5);
    const relay = new OutboxRelay({ database: fx.database, bus, log: silentLog });
    expect(await relay.drain()).toBe(5);
    await eventually(async () => ids.every((id) => received.includes(id)));
    await new Promise((r) => setTimeout(r, 300));
    for (const id of ids) expect(received.filter((r) => r === id)).toHaveLength(1);
  });

  it('sends a backlog in batches of 1,000 rows, never more than the bus window in flight (ADR 0038)', async () => {
    const [sample] = await fx.store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    // 2,499 more rows like it, each with an event id of its own.
    await sql`INSERT INTO outbox (event_id, subject, envelope)
              SELECT id, o.subject, jsonb_set(o.envelope, '{id}', to_jsonb(id::text))
              FROM outbox o, (SELECT gen_random_uuid() AS id FROM generate_series(1, 2499)) ids
              WHERE o.event_id = ${sample!.eventId}`.execute(fx.database.db);
    const sizes: number[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const counted: EventBus = {
      publishWindow: bus.publishWindow,
      ensureStreams: (contexts) => bus.ensureStreams(contexts),
      publish: async (messages) => {
        sizes.push(messages.length);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          await bus.publish(messages);
        } finally {
          inFlight -= 1;
        }
      },
      subscribe: (s) => bus.subscribe(s),
      watch: (s) => bus.watch(s),
      isHealthy: () => bus.isHealthy(),
      onReconnect: (listener) => bus.onReconnect(listener),
      close: async () => {},
    };
    const relay = new OutboxRelay({ database: fx.database, bus: counted, log: silentLog });
    expect(await relay.drain()).toBe(2500);
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(mostInFlight).toBeLessThanOrEqual(bus.publishWindow);
    expect(bus.publishWindow).toBe(4);
    expect(await unpublished()).toBe(0);
  });

  it('analyses the outbox once when a backlog arrives (its statistics say "a few unpublished rows"), not per batch or per drain (ADR 0048)', async () => {
    const analyses = async () =>
      Number(
        (
          await sql<{ n: number }>`SELECT coalesce(sum(analyze_count), 0)::int AS n FROM pg_stat_user_tables
                                   WHERE schemaname = ${fx.database.schema} AND relname = 'outbox'`.execute(fx.database.db)
        ).rows[0]!.n,
      );
    const backlog = async (rows: number) => {
      const [sample] = await fx.store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
      await sql`INSERT INTO outbox (event_id, subject, envelope)
                SELECT id, o.subject, jsonb_set(o.envelope, '{id}', to_jsonb(id::text))
                FROM outbox o, (SELECT gen_random_uuid() AS id FROM generate_series(1, ${rows - 1}::int) AS g) ids
                WHERE o.event_id = ${sample!.eventId}`.execute(fx.database.db);
    };
    const relay = new OutboxRelay({ database: fx.database, bus, log: silentLog });
    const before = await analyses();
    await backlog(10);
    expect(await relay.drain()).toBe(10);
    await backlog(2500);
    expect(await relay.drain()).toBe(2500);
    await backlog(2500);
    expect(await relay.drain()).toBe(2500);
    // The statistics views are updated when a backend reports, not at once: wait for the one ANALYZE to show.
    await eventually(async () => {
      await sql`SELECT pg_stat_clear_snapshot()`.execute(fx.database.db);
      return (await analyses()) > before;
    });
    expect(await analyses()).toBe(before + 1);
    expect(await unpublished()).toBe(0);
  });

  it("publishes a committed event without waiting for its poll interval or its NOTIFY: this process's commit wakes it (ADR 0046)", async () => {
    // The schema through a handle whose LISTEN hears nothing, and a poll a minute away: only the commit can wake it.
    const deaf = { ...fx.database, listen: async () => async () => {} };
    const relay = new OutboxRelay({ database: deaf, bus, log: silentLog, pollIntervalMs: 60_000 });
    await relay.start();
    try {
      await eventually(async () => relay.isLeader && (await unpublished()) === 0);
      await new Promise((resolve) => setTimeout(resolve, 100)); // its first drain is over; it sleeps for a minute now
      const [event] = await fx.store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
      await eventually(async () => received.includes(event!.eventId), 10_000);
      expect(await unpublished()).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it("is still woken by another process's NOTIFY, and not a second time by its own process's", async () => {
    const relay = new OutboxRelay({ database: fx.database, bus, log: silentLog, pollIntervalMs: 60_000 });
    const seen: (string | undefined)[] = [];
    const unlisten = await fx.database.listen(outboxChannel(fx.database.schema), (payload) => seen.push(payload));
    await relay.start();
    try {
      await eventually(async () => relay.isLeader && (await unpublished()) === 0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Another process's append: its outbox row and a NOTIFY with its own origin, committed together.
      const eventId = randomUUID();
      await fx.database.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO outbox (event_id, subject, envelope) VALUES (${eventId}, 'ques.support.Incremented', ${JSON.stringify({
          id: eventId,
          type: 'Incremented',
          context: 'support',
          version: 1,
          streamId: `counter-${randomUUID()}`,
          streamVersion: 1,
          occurredAt: new Date().toISOString(),
          correlationId: randomUUID(),
          causationId: null,
          data: { by: 1 },
        })}::jsonb)`.execute(trx);
        await sql`SELECT pg_notify(${outboxChannel(fx.database.schema)}, 'another-process')`.execute(trx);
      });
      await eventually(async () => received.includes(eventId), 10_000);
      // This process's appends NOTIFY with its origin, which its relay leaves out (the commit woke it already).
      const before = seen.length;
      await fx.store.append({ streamId: `counter-${randomUUID()}`, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
      await eventually(async () => seen.length > before);
      expect(seen.slice(before)).toEqual([commitOrigin]);
      expect(fromOtherProcess(() => seen.push('woken'))(commitOrigin)).toBeUndefined();
      expect(seen.includes('woken')).toBe(false);
    } finally {
      await relay.stop();
      await unlisten();
    }
  });
});
