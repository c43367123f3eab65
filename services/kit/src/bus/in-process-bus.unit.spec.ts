import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '@ques/contracts';
import type { DeliveryInfo, OutgoingMessage, PoisonMessage, SubscriptionSpec } from './bus.js';
import { InProcessEventBus } from './in-process-bus.js';
import { assertSubjectsInContext, streamName, subjectMatches, wireSubject } from './naming.js';

const log = pino({ level: 'silent' });

function envelope(type = 'UserRegistered', data: unknown = {}): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    streamId: `user-${randomUUID()}`,
    streamVersion: 1,
    occurredAt: new Date().toISOString(),
    correlationId: 'corr-1',
    causationId: null,
    data,
  };
}

function message(type = 'UserRegistered', data: unknown = {}, context = 'identity'): OutgoingMessage {
  const e = envelope(type, data);
  return { subject: `ques.${context}.${type}`, envelope: e, msgId: e.id };
}

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

interface Recorder {
  handled: { id: string; type: string; delivery: DeliveryInfo }[];
  poisoned: PoisonMessage[];
}

function spec(overrides: Partial<SubscriptionSpec> & { rec?: Recorder } = {}): SubscriptionSpec & { rec: Recorder } {
  const rec: Recorder = overrides.rec ?? { handled: [], poisoned: [] };
  return {
    durable: 'test--consumer',
    context: 'identity',
    subjects: ['ques.identity.>'],
    handler: async (e, delivery) => void rec.handled.push({ id: e.id, type: e.type, delivery }),
    onPoison: async (p) => void rec.poisoned.push(p),
    ...overrides,
    rec,
  };
}

describe('subject naming and matching', () => {
  it('matches NATS wildcards: * is one token, > is one or more trailing tokens', () => {
    expect(subjectMatches('ques.identity.UserRegistered', 'ques.identity.UserRegistered')).toBe(true);
    expect(subjectMatches('ques.identity.UserRegistered', 'ques.identity.UserDeleted')).toBe(false);
    expect(subjectMatches('ques.identity.*', 'ques.identity.UserDeleted')).toBe(true);
    expect(subjectMatches('ques.identity.*', 'ques.identity.a.b')).toBe(false);
    expect(subjectMatches('ques.identity.*', 'ques.identity')).toBe(false);
    expect(subjectMatches('ques.*.UserDeleted', 'ques.questions.UserDeleted')).toBe(true);
    expect(subjectMatches('ques.identity.>', 'ques.identity.a.b')).toBe(true);
    expect(subjectMatches('ques.identity.>', 'ques.identity')).toBe(false);
    expect(subjectMatches('ques.identity.>', 'ques.questions.QuestionAsked')).toBe(false);
    expect(subjectMatches('ques.identity', 'ques.identity.UserRegistered')).toBe(false);
  });

  it('prefixes subjects and stream names with the namespace', () => {
    expect(wireSubject('ques.identity.UserRegistered')).toBe('ques.identity.UserRegistered');
    expect(wireSubject('ques.identity.UserRegistered', 't_ab12')).toBe('t_ab12.ques.identity.UserRegistered');
    expect(streamName('identity')).toBe('IDENTITY');
    expect(streamName('payments', 't_ab-12.x')).toBe('T_AB_12_X_PAYMENTS');
  });

  it('rejects subscription subjects outside the context stream', () => {
    expect(() => assertSubjectsInContext('identity', ['ques.identity.UserRegistered', 'ques.identity.>'])).not.toThrow();
    expect(() => assertSubjectsInContext('identity', ['ques.questions.QuestionAsked'])).toThrow(/not inside the "identity" stream/);
    expect(() => assertSubjectsInContext('identity', ['ques.*.UserRegistered'])).toThrow();
    expect(() => assertSubjectsInContext('identity', ['ques.identity'])).toThrow();
    expect(() => assertSubjectsInContext('identity', [])).toThrow();
  });
});

describe('InProcessEventBus', () => {
  let bus: InProcessEventBus;
  const newBus = (backoffMs = [1, 1, 1]) => (bus = new InProcessEventBus({ log, backoffMs }));
  afterEach(async () => {
    await bus?.close();
  });

  it('delivers by subject with wildcards and keeps subscriptions of other subjects apart', async () => {
    newBus();
    const all = spec({ durable: 'a--all', subjects: ['ques.identity.>'] });
    const star = spec({ durable: 'a--star', subjects: ['ques.identity.*'] });
    const exact = spec({ durable: 'a--exact', subjects: ['ques.identity.UserDeleted'] });
    const other = spec({ durable: 'a--other', context: 'questions', subjects: ['ques.questions.>'] });
    for (const s of [all, star, exact, other]) await bus.subscribe(s);

    const registered = message('UserRegistered');
    const deleted = message('UserDeleted');
    await bus.publish([registered, deleted]);

    expect(all.rec.handled.map((h) => h.id)).toEqual([registered.envelope.id, deleted.envelope.id]);
    expect(star.rec.handled.map((h) => h.id)).toEqual([registered.envelope.id, deleted.envelope.id]);
    expect(exact.rec.handled.map((h) => h.id)).toEqual([deleted.envelope.id]);
    expect(exact.rec.handled[0]!.delivery).toEqual({ attempt: 1, subject: 'ques.identity.UserDeleted' });
    expect(other.rec.handled).toEqual([]);
  });

  it('hands every subscriber its own validated copy of the envelope, as the wire would', async () => {
    newBus();
    const seen: EventEnvelope[] = [];
    await bus.subscribe(spec({ durable: 'a--one', handler: async (e) => void seen.push(e) }));
    await bus.subscribe(spec({ durable: 'a--two', handler: async (e) => void seen.push(e) }));
    const m = message('ProfileUpdated', { when: new Date('2024-01-02T03:04:05.000Z'), nested: { n: 1 } });
    await bus.publish([m]);

    expect(seen).toHaveLength(2);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[0]!.data).toEqual({ when: '2024-01-02T03:04:05.000Z', nested: { n: 1 } });
    expect(seen[0]).toEqual(seen[1]);
  });

  it('delivers in publish order, within a batch and across batches', async () => {
    newBus();
    const s = spec();
    await bus.subscribe(s);
    const first = Array.from({ length: 25 }, () => message());
    const second = Array.from({ length: 5 }, () => message());
    await bus.publish(first);
    await bus.publish(second);
    expect(s.rec.handled.map((h) => h.id)).toEqual([...first, ...second].map((m) => m.envelope.id));
  });

  it('retries a failing handler with increasing attempt numbers until it succeeds', async () => {
    newBus();
    const attempts: number[] = [];
    const s = spec({
      maxDeliver: 5,
      handler: async (_e, d) => {
        attempts.push(d.attempt);
        if (d.attempt < 3) throw new Error('database busy');
      },
    });
    await bus.subscribe(s);
    await bus.publish([message()]);
    expect(attempts).toEqual([1, 2, 3]);
    expect(s.rec.poisoned).toEqual([]);
  });

  it('parks a message that fails on every allowed delivery, then keeps delivering later messages', async () => {
    newBus();
    const bad = message('UserRegistered', { bad: true });
    const good = message('UserRegistered', { bad: false });
    const attempts: number[] = [];
    const handled: string[] = [];
    const s = spec({
      maxDeliver: 3,
      handler: async (e, d) => {
        if ((e.data as { bad: boolean }).bad) {
          attempts.push(d.attempt);
          throw new Error('cannot handle this one');
        }
        handled.push(e.id);
      },
    });
    await bus.subscribe(s);
    await bus.publish([bad, good]);

    expect(attempts).toEqual([1, 2, 3]);
    expect(s.rec.poisoned).toHaveLength(1);
    expect(s.rec.poisoned[0]).toMatchObject({
      consumer: 'test--consumer',
      subject: 'ques.identity.UserRegistered',
      eventId: bad.envelope.id,
      error: 'cannot handle this one',
      attempts: 3,
    });
    expect(JSON.parse(s.rec.poisoned[0]!.payload)).toEqual(bad.envelope);
    expect(handled).toEqual([good.envelope.id]);
  });

  it('parks an invalid envelope at once without calling the handler', async () => {
    newBus();
    const s = spec();
    await bus.subscribe(s);
    const id = randomUUID();
    const invalid = { subject: 'ques.identity.UserRegistered', envelope: { id, type: 'UserRegistered' } as unknown as EventEnvelope, msgId: id };
    const good = message();
    await bus.publish([invalid, good]);

    expect(s.rec.poisoned).toHaveLength(1);
    expect(s.rec.poisoned[0]).toMatchObject({ eventId: id, attempts: 1, consumer: 'test--consumer' });
    expect(s.rec.poisoned[0]!.error).toMatch(/invalid event envelope/);
    expect(s.rec.handled.map((h) => h.id)).toEqual([good.envelope.id]);
  });

  it('rejects the publish when a poison message cannot be parked, after delivering to everyone else', async () => {
    newBus();
    const other = spec({ durable: 'a--healthy' });
    await bus.subscribe(other);
    await bus.subscribe(
      spec({
        durable: 'a--broken',
        maxDeliver: 2,
        handler: async () => {
          throw new Error('always fails');
        },
        onPoison: async () => {
          throw new Error('dead-letter table unavailable');
        },
      }),
    );
    const m = message();
    await expect(bus.publish([m])).rejects.toThrow(/dead-letter table unavailable/);
    expect(other.rec.handled.map((h) => h.id)).toEqual([m.envelope.id]);
  });

  it('splits the work of one durable between its subscriptions, each message to exactly one', async () => {
    newBus();
    const a = spec({ durable: 'shared--work' });
    const b = spec({ durable: 'shared--work' });
    const independent = spec({ durable: 'other--work' });
    for (const s of [a, b, independent]) await bus.subscribe(s);
    const messages = Array.from({ length: 10 }, () => message());
    await bus.publish(messages);

    const ids = messages.map((m) => m.envelope.id);
    const shared = [...a.rec.handled, ...b.rec.handled].map((h) => h.id);
    expect(shared.sort()).toEqual([...ids].sort());
    expect(a.rec.handled.length).toBe(5);
    expect(b.rec.handled.length).toBe(5);
    expect(independent.rec.handled.map((h) => h.id)).toEqual(ids);
  });

  it('resolves publish only after every matching subscription has handled the message', async () => {
    newBus();
    const gate = deferred();
    const started = deferred();
    const fast = spec({ durable: 'a--fast' });
    await bus.subscribe(fast);
    await bus.subscribe(
      spec({
        durable: 'a--slow',
        handler: async () => {
          started.resolve();
          await gate.promise;
        },
      }),
    );
    let published = false;
    const publishing = bus.publish([message()]).then(() => (published = true));
    await started.promise;
    expect(fast.rec.handled).toHaveLength(1);
    expect(published).toBe(false);
    gate.resolve();
    await publishing;
    expect(published).toBe(true);
  });

  it('stop waits for the in-flight handler, and a stopped subscription gets nothing more', async () => {
    newBus();
    const gate = deferred();
    const started = deferred();
    let finished = false;
    const handled: string[] = [];
    const sub = await bus.subscribe(
      spec({
        handler: async (e) => {
          handled.push(e.id);
          started.resolve();
          await gate.promise;
          finished = true;
        },
      }),
    );
    const first = message();
    const publishing = bus.publish([first]);
    await started.promise;
    let stopped = false;
    const stopping = sub.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    await publishing;

    await bus.publish([message()]);
    expect(handled).toEqual([first.envelope.id]);
  });

  it('hands a message that is being retried to another member of the durable when its subscription stops', async () => {
    newBus([20]);
    const failedOnce = deferred();
    const taken: { who: string; attempt: number }[] = [];
    const a = await bus.subscribe(
      spec({
        durable: 'shared--retry',
        handler: async (_e, d) => {
          taken.push({ who: 'a', attempt: d.attempt });
          failedOnce.resolve();
          throw new Error('a fails');
        },
      }),
    );
    await bus.subscribe(spec({ durable: 'shared--retry', handler: async (_e, d) => void taken.push({ who: 'b', attempt: d.attempt }) }));
    // Round-robin sends the first message to `a`.
    const publishing = bus.publish([message()]);
    await failedOnce.promise;
    await a.stop();
    await publishing;
    expect(taken).toEqual([
      { who: 'a', attempt: 1 },
      { who: 'b', attempt: 2 },
    ]);
  });

  it('is unhealthy and refuses work once closed', async () => {
    newBus();
    await bus.ensureStreams(['identity']);
    expect(bus.isHealthy()).toBe(true);
    await bus.close();
    expect(bus.isHealthy()).toBe(false);
    await expect(bus.publish([message()])).rejects.toThrow(/closed/);
    await expect(bus.subscribe(spec())).rejects.toThrow(/closed/);
  });

  it('refuses a subscription to subjects of another context', async () => {
    newBus();
    await expect(bus.subscribe(spec({ context: 'identity', subjects: ['ques.payments.TipCaptured'] }))).rejects.toThrow(/not inside/);
  });
});

describe('InProcessEventBus watch', () => {
  it('tells every watcher of each matching event, before and besides the durable consumers, until it stops', async () => {
    const bus = new InProcessEventBus({ log });
    const a: string[] = [];
    const b: string[] = [];
    const s = spec();
    await bus.subscribe(s);
    const watchA = await bus.watch({ subjects: ['ques.identity.>'], handler: (e, subject) => void a.push(`${subject}:${e.id}`) });
    await bus.watch({ subjects: ['ques.questions.*'], handler: (e) => void b.push(e.id) });
    const failing = await bus.watch({ subjects: ['ques.identity.>'], handler: () => { throw new Error('boom'); } });
    const m = message('UserDeleted', { userId: 'u1' });
    await bus.publish([m]);
    await new Promise((r) => setTimeout(r, 0));
    expect(a).toEqual([`ques.identity.UserDeleted:${m.envelope.id}`]);
    expect(b).toEqual([]);
    // A watcher that throws changes nothing for the consumers.
    expect(s.rec.handled.map((h) => h.id)).toEqual([m.envelope.id]);
    await watchA.stop();
    await failing.stop();
    await bus.publish([message('ProfileUpdated')]);
    await new Promise((r) => setTimeout(r, 0));
    expect(a).toHaveLength(1);
    await bus.close();
  });
});
