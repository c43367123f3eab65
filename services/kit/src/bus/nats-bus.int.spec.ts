import { randomUUID } from 'node:crypto';
import { connect, nanos, StorageType, type NatsConnection } from 'nats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@ques/contracts';
import { eventually, infraGate } from '../testing/infra.js';
import {
  deleteNamespaceStreams,
  natsServerBinary,
  natsTestUrl,
  startNatsServer,
  uniqueNamespace,
  type NatsTestServer,
} from '../testing/nats.js';
import type { DeliveryInfo, OutgoingMessage, PoisonMessage, Subscription, SubscriptionSpec } from './bus.js';
import { streamName, wireSubject } from './naming.js';
import { NatsEventBus } from './nats-bus.js';

const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const natsUrl = await natsTestUrl();
const run = infraGate(!!natsUrl, 'NATS JetStream');
const runRestart =
  run &&
  infraGate(!!natsServerBinary(), 'The nats-server binary (NATS_SERVER_BIN, PATH or /usr/sbin/nats-server)');

function message(type = 'SupportRequested', data: unknown = {}, msgId?: string): OutgoingMessage {
  const envelope: EventEnvelope = {
    id: randomUUID(),
    type,
    version: 1,
    streamId: `support-${randomUUID()}`,
    streamVersion: 1,
    occurredAt: new Date().toISOString(),
    correlationId: `corr-${randomUUID()}`,
    causationId: null,
    data,
  };
  return { subject: `ques.support.${type}`, envelope, msgId: msgId ?? envelope.id };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

interface Collected {
  handled: { envelope: EventEnvelope; delivery: DeliveryInfo }[];
  poisoned: PoisonMessage[];
  ids(): string[];
}

function collector(): Collected {
  const c: Collected = { handled: [], poisoned: [], ids: () => c.handled.map((h) => h.envelope.id) };
  return c;
}

function spec(durable: string, c: Collected, overrides: Partial<SubscriptionSpec> = {}): SubscriptionSpec {
  return {
    durable,
    context: 'support',
    subjects: ['ques.support.>'],
    handler: async (envelope, delivery) => void c.handled.push({ envelope, delivery }),
    onPoison: async (p) => void c.poisoned.push(p),
    backoffMs: [20],
    ...overrides,
  };
}

/** Once the server reports nothing pending and nothing unacked, no further delivery can arrive. */
async function settled(nc: NatsConnection, stream: string, durable: string): Promise<void> {
  const jsm = await nc.jetstreamManager();
  let last: unknown;
  try {
    await eventually(async () => {
      const info = await jsm.consumers.info(stream, durable);
      last = {
        pending: info.num_pending,
        ackPending: info.num_ack_pending,
        waiting: info.num_waiting,
        delivered: info.delivered,
        ackFloor: info.ack_floor,
      };
      return info.num_pending === 0 && info.num_ack_pending === 0;
    }, 15_000);
  } catch (err) {
    throw new Error(`consumer ${durable} did not settle: ${JSON.stringify(last)}`, { cause: err });
  }
}

describe.runIf(run)('NatsEventBus on a real NATS JetStream', () => {
  const namespace = uniqueNamespace('bus');
  const stream = streamName('support', namespace);
  let bus: NatsEventBus;
  let raw: NatsConnection;
  const subscriptions: Subscription[] = [];
  const subscribe = async (b: NatsEventBus, s: SubscriptionSpec) => {
    const sub = await b.subscribe(s);
    subscriptions.push(sub);
    return sub;
  };

  beforeAll(async () => {
    bus = await NatsEventBus.connect({ servers: natsUrl!, name: 'bus-test', namespace, log });
    await bus.ensureStreams(['support']);
    raw = await connect({ servers: natsUrl! });
  });
  afterAll(async () => {
    await Promise.all(subscriptions.map((s) => s.stop()));
    await bus?.close();
    await raw?.close();
    if (natsUrl) await deleteNamespaceStreams(natsUrl, namespace);
  });

  it('creates the namespaced, file-backed, deduplicating stream, idempotently', async () => {
    await bus.ensureStreams(['support', 'support']);
    const info = await (await raw.jetstreamManager()).streams.info(stream);
    expect(info.config.subjects).toEqual([`${namespace}.ques.support.>`]);
    expect(info.config.storage).toBe(StorageType.File);
    expect(info.config.duplicate_window).toBe(nanos(120_000));
    expect(info.config.max_age).toBe(nanos(30 * 24 * 60 * 60_000));
    expect(bus.isHealthy()).toBe(true);
  });

  it('round-trips an envelope with its correlation id header, un-namespaced subject and attempt 1', async () => {
    const c = collector();
    await subscribe(bus, spec('test--roundtrip', c));
    const m = message('SupportRequested', { topic: 'billing', n: 3 });
    await bus.publish([m]);

    const [got] = await eventually(async () => (c.handled.length > 0 ? c.handled : null));
    expect(got!.envelope).toEqual(m.envelope);
    expect(got!.delivery).toEqual({ attempt: 1, subject: 'ques.support.SupportRequested' });

    const jsm = await raw.jetstreamManager();
    const stored = await jsm.streams.getMessage(stream, { last_by_subj: wireSubject(m.subject, namespace) });
    expect(stored.header.get('correlation-id')).toBe(m.envelope.correlationId);
    expect(stored.header.get('Nats-Msg-Id')).toBe(m.msgId);
  });

  it("publishes an envelope already serialised (the outbox row's stored JSON) byte for byte", async () => {
    const c = collector();
    await subscribe(bus, spec('test--serialised', c, { subjects: ['ques.support.Serialised'] }));
    const m = message('Serialised', { topic: 'stored' });
    // As Postgres prints jsonb: its own key order and spacing.
    const json = `{"id": "${m.envelope.id}", "data": {"topic": "stored"}, "type": "Serialised", "version": 1, "streamId": "${m.envelope.streamId}", "causationId": null, "occurredAt": "${m.envelope.occurredAt}", "streamVersion": 1, "correlationId": "${m.envelope.correlationId}"}`;
    await bus.publish([
      { subject: m.subject, envelope: { json, correlationId: m.envelope.correlationId }, msgId: m.msgId },
    ]);

    const [got] = await eventually(async () => (c.handled.length > 0 ? c.handled : null));
    expect(got!.envelope).toEqual(m.envelope);
    const stored = await (
      await raw.jetstreamManager()
    ).streams.getMessage(stream, { last_by_subj: wireSubject(m.subject, namespace) });
    expect(new TextDecoder().decode(stored.data)).toBe(json);
    expect(stored.header.get('correlation-id')).toBe(m.envelope.correlationId);
    expect(stored.header.get('Nats-Msg-Id')).toBe(m.msgId);
  });

  it('handles a lone message as soon as it arrives, not when its pull request fills or expires', async () => {
    const c = collector();
    const handledAt = new Map<string, number>();
    await subscribe(
      bus,
      spec('test--lone', c, {
        subjects: ['ques.support.Lone'],
        handler: async (envelope) => void handledAt.set(envelope.id, performance.now()),
      }),
    );
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      // Mid-request: the pull request (up to 16 messages, 1 s) is open when the message arrives.
      await new Promise((r) => setTimeout(r, 150));
      const m = message('Lone');
      const sent = performance.now();
      await bus.publish([m]);
      const at = await eventually(async () => handledAt.get(m.envelope.id) ?? null);
      waits.push(at - sent);
    }
    waits.sort((a, b) => a - b);
    expect(waits[2]).toBeLessThan(250); // the median: far below the request's 1 s expiry
  });

  it("handles messages of different streams at once up to its concurrency, one stream's in order", async () => {
    const streams = ['a', 'b', 'c'].map((s) => `parallel-${s}-${randomUUID()}`);
    const messages = [0, 1].flatMap((version) =>
      streams.map((streamId) => {
        const m = message('Parallel', { version });
        m.envelope.streamId = streamId;
        m.envelope.streamVersion = version + 1;
        return m;
      }),
    );
    const running = new Map<string, number>();
    let overlappedStreams = 0;
    let sameStreamOverlap = false;
    const order: Record<string, number[]> = {};
    const firstsStarted = deferred();
    let firsts = 0;
    const c = collector();
    await subscribe(
      bus,
      spec('test--parallel', c, {
        subjects: ['ques.support.Parallel'],
        concurrency: 3,
        handler: async (envelope) => {
          const { streamId } = envelope;
          if (running.get(streamId)) sameStreamOverlap = true;
          running.set(streamId, 1);
          overlappedStreams = Math.max(overlappedStreams, [...running.values()].filter(Boolean).length);
          (order[streamId] ??= []).push(envelope.streamVersion);
          if (envelope.streamVersion === 1 && ++firsts === streams.length) firstsStarted.resolve();
          // Each stream's first message waits (at most 2 s) until all three first messages are in hand.
          if (envelope.streamVersion === 1)
            await Promise.race([firstsStarted.promise, new Promise((r) => setTimeout(r, 2_000))]);
          else await new Promise((r) => setTimeout(r, 20));
          running.set(streamId, 0);
          c.handled.push({ envelope, delivery: { attempt: 1, subject: 'ques.support.Parallel' } });
        },
      }),
    );
    await bus.publish(messages);
    await eventually(async () => c.handled.length === messages.length, 10_000);
    expect(overlappedStreams).toBe(3);
    expect(sameStreamOverlap).toBe(false);
    for (const streamId of streams) expect(order[streamId]).toEqual([1, 2]);
  });

  it('gives every watching instance each published event, un-namespaced, and leaves no consumer behind', async () => {
    const other = await NatsEventBus.connect({ servers: natsUrl!, name: 'bus-test-watch', namespace, log });
    const seen: Record<'a' | 'b', string[]> = { a: [], b: [] };
    const watchA = await bus.watch({
      subjects: ['ques.support.>'],
      handler: (e, subject) => void seen.a.push(`${subject}:${e.id}`),
    });
    const watchB = await other.watch({
      subjects: ['ques.support.SupportRequested'],
      handler: (e) => void seen.b.push(e.id),
    });
    const jsm = await raw.jetstreamManager();
    const consumersBefore = (await jsm.consumers.list(stream).next()).length;
    const m = message('SupportRequested', { topic: 'watch' });
    await bus.publish([m]);
    await eventually(async () => (seen.a.length && seen.b.length ? true : null));
    expect(seen.a).toEqual([`ques.support.SupportRequested:${m.envelope.id}`]);
    expect(seen.b).toEqual([m.envelope.id]);
    expect((await jsm.consumers.list(stream).next()).length).toBe(consumersBefore);
    await watchA.stop();
    await watchB.stop();
    await other.close();
  });

  it('stores and delivers a message published twice under one msgID only once', async () => {
    const c = collector();
    await subscribe(
      bus,
      spec('test--dedupe', c, { subjects: ['ques.support.Deduped', 'ques.support.Sentinel'] }),
    );
    const m = message('Deduped');
    await bus.publish([m, m]);
    await bus.publish([m]);
    const sentinel = message('Sentinel');
    await bus.publish([sentinel]);

    await eventually(async () => c.ids().includes(sentinel.envelope.id));
    await settled(raw, stream, 'test--dedupe');
    expect(c.ids()).toEqual([m.envelope.id, sentinel.envelope.id]);
  });

  it('parks an unreadable payload and an always-failing message as poison while later messages keep flowing', async () => {
    const c = collector();
    const failingAttempts: number[] = [];
    await subscribe(
      bus,
      spec('test--poison', c, {
        subjects: ['ques.support.Poison'],
        maxDeliver: 3,
        backoffMs: [20, 40],
        handler: async (envelope, delivery) => {
          if ((envelope.data as { fail?: boolean }).fail) {
            failingAttempts.push(delivery.attempt);
            throw new Error('handler always fails');
          }
          c.handled.push({ envelope, delivery });
        },
      }),
    );
    const js = raw.jetstream();
    const garbageId = randomUUID();
    await js.publish(wireSubject('ques.support.Poison', namespace), 'this is not json', { msgID: garbageId });
    const invalid = message('Poison');
    await js.publish(
      wireSubject('ques.support.Poison', namespace),
      JSON.stringify({ ...invalid.envelope, version: 'one' }),
      { msgID: invalid.msgId },
    );
    const failing = message('Poison', { fail: true });
    const good = [message('Poison', { n: 1 }), message('Poison', { n: 2 })];
    await bus.publish([failing, good[0]!]);
    await bus.publish([good[1]!]);

    await eventually(async () => c.poisoned.length === 3 && c.handled.length === 2);
    await settled(raw, stream, 'test--poison');

    expect(c.ids().sort()).toEqual(good.map((g) => g.envelope.id).sort());
    expect(failingAttempts).toEqual([1, 2, 3]);
    const byEvent = new Map(c.poisoned.map((p) => [p.eventId, p]));
    expect(byEvent.get(garbageId)).toMatchObject({
      consumer: 'test--poison',
      subject: 'ques.support.Poison',
      payload: 'this is not json',
      attempts: 1,
    });
    expect(byEvent.get(garbageId)!.error).toMatch(/not JSON/);
    expect(byEvent.get(invalid.envelope.id)).toMatchObject({ attempts: 1 });
    expect(byEvent.get(invalid.envelope.id)!.error).toMatch(/invalid event envelope/);
    expect(byEvent.get(failing.envelope.id)).toMatchObject({ attempts: 3, error: 'handler always fails' });
    expect(JSON.parse(byEvent.get(failing.envelope.id)!.payload)).toEqual(failing.envelope);
  });

  it('retries a message whose poison could not be parked instead of dropping it', async () => {
    const c = collector();
    let parkingFailures = 0;
    await subscribe(
      bus,
      spec('test--unparkable', c, {
        subjects: ['ques.support.Unparkable'],
        maxDeliver: 1,
        backoffMs: [20],
        handler: async () => {
          throw new Error('always fails');
        },
        onPoison: async (p) => {
          if (parkingFailures < 2) {
            parkingFailures += 1;
            throw new Error('dead-letter table unavailable');
          }
          c.poisoned.push(p);
        },
      }),
    );
    const m = message('Unparkable');
    await bus.publish([m]);

    await eventually(async () => c.poisoned.length === 1);
    await settled(raw, stream, 'test--unparkable');
    expect(parkingFailures).toBe(2);
    expect(c.poisoned).toHaveLength(1);
    expect(c.poisoned[0]).toMatchObject({ eventId: m.envelope.id, attempts: 3 });
  });

  it('splits one durable between two bus instances: every message is handled exactly once in total', async () => {
    const other = await NatsEventBus.connect({ servers: natsUrl!, name: 'bus-test-2', namespace, log });
    try {
      const a = collector();
      const b = collector();
      const s1 = spec('test--shared', a, { subjects: ['ques.support.Shared'] });
      await subscribe(bus, s1);
      await subscribe(other, spec('test--shared', b, { subjects: ['ques.support.Shared'] }));
      const messages = Array.from({ length: 60 }, (_, i) => message('Shared', { i }));
      for (let i = 0; i < messages.length; i += 10) await bus.publish(messages.slice(i, i + 10));

      await eventually(async () => a.handled.length + b.handled.length >= messages.length, 15_000);
      await settled(raw, stream, 'test--shared');
      const all = [...a.ids(), ...b.ids()];
      expect(all).toHaveLength(messages.length);
      expect(new Set(all)).toEqual(new Set(messages.map((m) => m.envelope.id)));
    } finally {
      await other.close();
    }
  });

  it('stop waits for the in-flight handler and hands buffered messages straight to another instance', async () => {
    const other = await NatsEventBus.connect({ servers: natsUrl!, name: 'bus-test-3', namespace, log });
    try {
      const gate = deferred();
      const started = deferred();
      const a = collector();
      let finishedInFlight = false;
      const first = await subscribe(
        bus,
        spec('test--handoff', a, {
          subjects: ['ques.support.Handoff'],
          handler: async (envelope, delivery) => {
            a.handled.push({ envelope, delivery });
            started.resolve();
            await gate.promise;
            finishedInFlight = true;
          },
        }),
      );
      const messages = Array.from({ length: 6 }, () => message('Handoff'));
      await bus.publish(messages);
      await started.promise;

      let stopped = false;
      const stopping = first.stop().then(() => (stopped = true));
      await new Promise((r) => setImmediate(r));
      expect(stopped).toBe(false);
      gate.resolve();
      await stopping;
      expect(finishedInFlight).toBe(true);
      expect(a.handled).toHaveLength(1);

      const b = collector();
      await subscribe(other, spec('test--handoff', b, { subjects: ['ques.support.Handoff'] }));
      // Sooner than the 5 s ack_wait: only an explicit nak on stop makes them available this soon.
      await eventually(async () => b.handled.length === messages.length - 1, 4_000);
      await settled(raw, stream, 'test--handoff');
      expect([...a.ids(), ...b.ids()].sort()).toEqual(messages.map((m) => m.envelope.id).sort());
    } finally {
      await other.close();
    }
  });

  it('recreates its consumer and keeps consuming when the consumer is deleted under it', async () => {
    const c = collector();
    await subscribe(bus, spec('test--recreated', c, { subjects: ['ques.support.Recreated'] }));
    const before = message('Recreated');
    await bus.publish([before]);
    await eventually(async () => c.ids().includes(before.envelope.id));

    await (await raw.jetstreamManager()).consumers.delete(stream, 'test--recreated');
    const after = message('Recreated');
    await bus.publish([after]);

    await eventually(async () => c.ids().includes(after.envelope.id), 15_000);
    const info = await (await raw.jetstreamManager()).consumers.info(stream, 'test--recreated');
    expect(info.config.durable_name).toBe('test--recreated');
  });

  it('follows a change of subjects on an existing durable', async () => {
    const before = collector();
    const first = await subscribe(bus, spec('test--evolving', before, { subjects: ['ques.support.One'] }));
    const one = message('One');
    await bus.publish([one]);
    await eventually(async () => before.ids().includes(one.envelope.id));
    await first.stop();

    const after = collector();
    await subscribe(
      bus,
      spec('test--evolving', after, { subjects: ['ques.support.One', 'ques.support.Two'] }),
    );
    const msgs = [message('One'), message('Unrelated'), message('Two')];
    await bus.publish(msgs);

    await eventually(async () => after.handled.length >= 2);
    await settled(raw, stream, 'test--evolving');
    expect(after.ids()).toEqual([msgs[0]!.envelope.id, msgs[2]!.envelope.id]);
    expect(before.ids()).toEqual([one.envelope.id]);
  });

  it('rejects a publish to a subject no stream captures', async () => {
    await expect(bus.publish([{ ...message(), subject: 'ques.nowhere.Lost' }])).rejects.toThrow();
  });
});

describe.runIf(runRestart)('NatsEventBus across a NATS server restart', () => {
  let server: NatsTestServer;
  let bus: NatsEventBus;

  beforeAll(async () => {
    server = await startNatsServer();
    bus = await NatsEventBus.connect({ servers: server.url, name: 'restart-test', log });
    await bus.ensureStreams(['support']);
  });
  afterAll(async () => {
    await bus?.close();
    await server?.dispose();
  });

  it(
    'rejects publishes while the server is down, then publishes again and the subscriber resumes',
    { timeout: 90_000 },
    async () => {
      const c = collector();
      await bus.subscribe(spec('test--restart', c));
      const before = message();
      await bus.publish([before]);
      await eventually(async () => c.ids().includes(before.envelope.id));

      await server.stop();
      await eventually(async () => !bus.isHealthy());
      const during = message();
      await expect(bus.publish([during])).rejects.toThrow();

      await server.start();
      const after = message();
      // What the outbox relay does: retry the whole unpublished batch until the server takes it.
      await eventually(async () => {
        await bus.publish([during, after]);
        return true;
      }, 30_000);
      expect(bus.isHealthy()).toBe(true);

      await eventually(
        async () => c.ids().includes(during.envelope.id) && c.ids().includes(after.envelope.id),
        45_000,
      );
      const nc = await connect({ servers: server.url });
      try {
        await settled(nc, streamName('support'), 'test--restart');
      } finally {
        await nc.close();
      }
      // The rejected publish may still have reached the server after the reconnect; msgID dedupe keeps it single.
      expect(c.ids()).toEqual([before.envelope.id, during.envelope.id, after.envelope.id]);
    },
  );
});
