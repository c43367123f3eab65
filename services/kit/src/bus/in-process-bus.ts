import type { Logger } from 'pino';
import type { Context, EventEnvelope } from '@ques/contracts';
import { envelopeJson, type EventBus, type OutgoingMessage, type SerialisedEnvelope, type PoisonMessage, type Subscription, type SubscriptionSpec, type WatchSpec } from './bus.js';
import { assertSubjectsInContext, decodeEnvelope, errorMessage, retryDelay, subjectMatches } from './naming.js';

export interface InProcessEventBusOptions {
  log: Logger;
  /**
   * Delays between deliveries of a failing message, for every subscription on this bus (the last repeats).
   * A subscription's own `backoffMs` is tuned for NATS and is not used here: in-process retries hold up the
   * publisher (the outbox relay), so they must stay short. Default [50, 200, 1000].
   */
  backoffMs?: number[];
}

const DEFAULT_BACKOFF_MS = [50, 200, 1_000];
const DEFAULT_MAX_DELIVER = 5;

interface Member {
  spec: SubscriptionSpec;
  maxDeliver: number;
  stopped: boolean;
  inFlight: Set<Promise<unknown>>;
  /** Resolves when the member stops, cutting a retry delay short. */
  stopping: Promise<void>;
  signalStop: () => void;
}

/** Subscriptions sharing one durable name (per context), served round-robin like one JetStream consumer. */
interface Group {
  members: Member[];
  next: number;
}

type Outcome = { kind: 'settled' } | { kind: 'released'; attempts: number };

/**
 * The event bus of the embedded single-process mode. It stores nothing: `publish` hands each message to every
 * matching subscription and resolves only when all of them have handled it (or parked it as poison), so the outbox
 * row stays unpublished — and is delivered again after a crash — until every consumer is done with it.
 *
 * Messages are delivered as they would be over NATS: serialised to JSON and validated on arrival, retried with
 * backoff up to `maxDeliver`, then handed to `onPoison`. If `onPoison` fails, `publish` rejects so the relay
 * retries later; consumers are idempotent, so the redelivery to subscriptions that already handled it is harmless.
 * A subscription only sees messages published after it subscribed.
 */
export class InProcessEventBus implements EventBus {
  private readonly groups = new Map<string, Group>();
  private readonly watchers = new Set<WatchSpec>();
  private readonly backoffMs: readonly number[];
  private readonly log: Logger;
  private closed = false;

  constructor(opts: InProcessEventBusOptions) {
    this.backoffMs = opts.backoffMs && opts.backoffMs.length > 0 ? opts.backoffMs : DEFAULT_BACKOFF_MS;
    this.log = opts.log.child({ bus: 'in-process' });
  }

  async ensureStreams(_contexts: readonly Context[]): Promise<void> {}

  async publish(messages: readonly OutgoingMessage<EventEnvelope | SerialisedEnvelope>[]): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    const failures: unknown[] = [];
    for (const message of messages) {
      const payload = envelopeJson(message.envelope);
      this.notifyWatchers(message.subject, payload);
      const groups = [...this.groups.values()].filter((g) => g.members.some((m) => accepts(m, message.subject)));
      const results = await Promise.allSettled(groups.map((g) => this.deliver(g, message.subject, payload)));
      for (const r of results) if (r.status === 'rejected') failures.push(r.reason);
    }
    if (failures.length > 0) {
      throw new AggregateError(failures, `${failures.length} in-process deliveries could not be completed: ${errorMessage(failures[0])}`);
    }
  }

  async subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    if (this.closed) throw new Error('event bus is closed');
    assertSubjectsInContext(spec.context, spec.subjects);
    const maxDeliver = spec.maxDeliver ?? DEFAULT_MAX_DELIVER;
    if (!Number.isInteger(maxDeliver) || maxDeliver < 1) throw new Error(`maxDeliver must be a positive integer, got ${maxDeliver}`);

    let signalStop!: () => void;
    const stopping = new Promise<void>((resolve) => (signalStop = resolve));
    const member: Member = { spec, maxDeliver, stopped: false, inFlight: new Set(), stopping, signalStop };
    const key = groupKey(spec.context, spec.durable);
    const group = this.groups.get(key) ?? { members: [], next: 0 };
    group.members.push(member);
    this.groups.set(key, group);
    return { stop: () => this.stopMember(key, member) };
  }

  async watch(spec: WatchSpec): Promise<Subscription> {
    if (this.closed) throw new Error('event bus is closed');
    this.watchers.add(spec);
    return { stop: async () => void this.watchers.delete(spec) };
  }

  /** Watchers hear of a message before any consumer handles it, each with its own copy; their failures are theirs. */
  private notifyWatchers(subject: string, payload: string): void {
    for (const watcher of this.watchers) {
      if (!watcher.subjects.some((pattern) => subjectMatches(pattern, subject))) continue;
      const decoded = decodeEnvelope(payload);
      if (!decoded.ok) continue;
      void Promise.resolve()
        .then(() => watcher.handler(decoded.envelope, subject))
        .catch((err: unknown) => this.log.warn({ err, subject }, 'watcher failed'));
    }
  }

  isHealthy(): boolean {
    return !this.closed;
  }

  /** Nothing to reconnect to: the bus lives in this process. */
  onReconnect(_listener: () => void): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    this.closed = true;
    this.watchers.clear();
    const stops: Promise<void>[] = [];
    for (const [key, group] of this.groups) for (const member of [...group.members]) stops.push(this.stopMember(key, member));
    await Promise.all(stops);
  }

  private async stopMember(key: string, member: Member): Promise<void> {
    if (!member.stopped) {
      member.stopped = true;
      member.signalStop();
      const group = this.groups.get(key);
      if (group) {
        group.members = group.members.filter((m) => m !== member);
        if (group.members.length === 0) this.groups.delete(key);
      }
    }
    await Promise.allSettled([...member.inFlight]);
  }

  /** Delivers to one member of the group; a member that stops mid-way hands the message to another, as NATS would. */
  private async deliver(group: Group, subject: string, payload: string): Promise<void> {
    let attempts = 0;
    for (;;) {
      const member = pick(group, subject);
      if (!member) return; // every member stopped: nobody is listening any more
      const work = this.handle(member, subject, payload, attempts);
      member.inFlight.add(work);
      let outcome: Outcome;
      try {
        outcome = await work;
      } finally {
        member.inFlight.delete(work);
      }
      switch (outcome.kind) {
        case 'settled':
          return;
        case 'released':
          attempts = outcome.attempts;
          break;
        default: {
          const unexpected: never = outcome;
          throw new Error(`unexpected delivery outcome ${JSON.stringify(unexpected)}`);
        }
      }
    }
  }

  private async handle(member: Member, subject: string, payload: string, previousAttempts: number): Promise<Outcome> {
    const { spec, maxDeliver } = member;
    let attempts = previousAttempts;
    for (;;) {
      if (member.stopped) return { kind: 'released', attempts };
      attempts += 1;
      // Decoded per delivery so every attempt (and every subscriber) gets its own copy, as over the wire.
      const decoded = decodeEnvelope(payload);
      if (!decoded.ok) {
        await this.poison(member, { consumer: spec.durable, subject, payload, eventId: decoded.eventId, error: decoded.error, attempts });
        return { kind: 'settled' };
      }
      const { envelope } = decoded;
      try {
        await spec.handler(envelope, { attempt: attempts, subject });
        return { kind: 'settled' };
      } catch (err) {
        if (attempts >= maxDeliver) {
          this.log.warn({ err, consumer: spec.durable, subject, eventId: envelope.id, attempt: attempts }, 'handler failed on the last allowed delivery');
          await this.poison(member, { consumer: spec.durable, subject, payload, eventId: envelope.id, error: errorMessage(err), attempts });
          return { kind: 'settled' };
        }
        const delay = retryDelay(this.backoffMs, attempts);
        this.log.warn({ err, consumer: spec.durable, subject, eventId: envelope.id, attempt: attempts, retryInMs: delay }, 'handler failed; will retry');
        await Promise.race([sleep(delay), member.stopping]);
      }
    }
  }

  /** A failing `onPoison` propagates: `publish` rejects and the outbox delivers the message again later. */
  private async poison(member: Member, poison: PoisonMessage): Promise<void> {
    try {
      await member.spec.onPoison(poison);
    } catch (err) {
      this.log.error({ err, consumer: poison.consumer, subject: poison.subject, eventId: poison.eventId }, 'could not park poison message');
      throw err;
    }
    this.log.warn(
      { consumer: poison.consumer, subject: poison.subject, eventId: poison.eventId, attempts: poison.attempts, error: poison.error },
      'message parked as poison',
    );
  }
}

function groupKey(context: Context, durable: string): string {
  return `${context}/${durable}`;
}

function accepts(member: Member, subject: string): boolean {
  return !member.stopped && member.spec.subjects.some((p) => subjectMatches(p, subject));
}

function pick(group: Group, subject: string): Member | undefined {
  const candidates = group.members.filter((m) => accepts(m, subject));
  if (candidates.length === 0) return undefined;
  const member = candidates[group.next % candidates.length];
  group.next = (group.next + 1) % Number.MAX_SAFE_INTEGER;
  return member;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
