import type { Context, EventEnvelope } from '@ques/contracts';

/**
 * One integration event ready to leave the outbox. `E`: the envelope as an object, or already serialised (the outbox
 * relay sends the stored JSON as it reads it); `publish` takes either.
 */
export interface OutgoingMessage<E extends EventEnvelope | SerialisedEnvelope = EventEnvelope> {
  /** Subject without namespace, e.g. `ques.identity.UserRegistered`. */
  subject: string;
  envelope: E;
  /** Dedupe id for the transport (JetStream `msgID`). Normally the event id. */
  msgId: string;
}

/**
 * An envelope as JSON text, sent byte for byte: the outbox keeps every envelope as JSON, so the relay reads that text
 * and never parses or re-serialises it (ADR 0036). `correlationId` travels beside it for the transport's header.
 */
export interface SerialisedEnvelope {
  json: string;
  correlationId: string;
}

/** The wire form of a message's envelope: its stored JSON as is, or the envelope serialised now. */
export function envelopeJson(envelope: EventEnvelope | SerialisedEnvelope): string {
  return isSerialised(envelope) ? envelope.json : JSON.stringify(envelope);
}

function isSerialised(envelope: EventEnvelope | SerialisedEnvelope): envelope is SerialisedEnvelope {
  return typeof (envelope as Partial<SerialisedEnvelope>).json === 'string';
}

/** How a handler's delivery is numbered: 1 on the first delivery. */
export interface DeliveryInfo {
  attempt: number;
  subject: string;
}

export type EnvelopeHandler = (envelope: EventEnvelope, delivery: DeliveryInfo) => Promise<void>;

/** A message that can never be handled (invalid envelope, or it failed on every allowed delivery). */
export interface PoisonMessage {
  consumer: string;
  subject: string;
  /** The raw payload as text, since a poison message may not even parse. */
  payload: string;
  eventId: string | null;
  error: string;
  attempts: number;
}

export interface SubscriptionSpec {
  /** Durable consumer name `<consumer-service>--<purpose>`. Instances sharing a name share the work. */
  durable: string;
  /** Context whose stream is read. */
  context: Context;
  /** Subjects without namespace, e.g. `['ques.identity.UserRegistered']`; wildcards allowed (`ques.identity.>`). */
  subjects: string[];
  handler: EnvelopeHandler;
  /** Called once when a message is given up on; must persist it (dead-letter table). Then the message is dropped. */
  onPoison: (poison: PoisonMessage) => Promise<void>;
  /**
   * Handler failures before a message is poison. Deliveries are not failures: a message redelivered after a shutdown,
   * a crash or a lost database connection (`isConnectionLoss`, retried until the database is back) does not count.
   * Default 5.
   */
  maxDeliver?: number;
  /** Redelivery delays in ms, one per retry (the last repeats). Default [200, 1000, 5000, 15000]. */
  backoffMs?: number[];
  /**
   * How many messages of *different* event streams (envelope `streamId`) one instance handles at once; one stream's
   * messages are always handled one after the other, in the order they arrived. Default 1: strictly in order. Raise
   * it only for a handler whose effects on two streams never touch the same rows (ADR 0036): a burst then waits for
   * the slowest of its messages, not for the sum of them. The in-process bus handles one message at a time anyway.
   */
  concurrency?: number;
}

/**
 * A watch: every message on the subjects, to this process, from now on, at most once; no durable consumer, no acks,
 * no redelivery, nothing left on the server when the process goes. For caches and other hints that a state may have
 * changed (the BFF's rendered pages, docs/adr/0024), never for work that must happen.
 */
export interface WatchSpec {
  /** Subjects without namespace; wildcards allowed (`ques.identity.>`). Any context. */
  subjects: string[];
  /** Called per message; what it throws is logged and dropped. */
  handler: (envelope: EventEnvelope, subject: string) => void | Promise<void>;
}

export interface Subscription {
  /** Stops receiving; in-flight handlers finish first. */
  stop(): Promise<void>;
}

/**
 * The event bus every service talks to. Two adapters: NATS JetStream (distributed) and in-process (embedded).
 * Delivery is at-least-once; consumers dedupe by envelope id (see `idempotentHandler`).
 */
export interface EventBus {
  /** Ensures the stream of every context exists (idempotent). */
  ensureStreams(contexts: readonly Context[]): Promise<void>;
  /**
   * How many `publish` calls the outbox relay may have in flight at once (acks pipelined across batches). Absent: one
   * at a time (the in-process bus, whose publish runs the handlers).
   */
  readonly publishWindow?: number;
  /** Publishes in order; resolves when the transport has stored every message (JetStream ack). Rejects if any failed. */
  publish(messages: readonly OutgoingMessage<EventEnvelope | SerialisedEnvelope>[]): Promise<void>;
  subscribe(spec: SubscriptionSpec): Promise<Subscription>;
  /** An ephemeral watch of subjects (see WatchSpec): every instance that watches sees every message. */
  watch(spec: WatchSpec): Promise<Subscription>;
  /** True while the transport is connected. */
  isHealthy(): boolean;
  /**
   * Calls `listener` each time the transport is back after a disconnection (not on the first connect), so work that
   * backed off while it was away (the outbox relay) resumes at once. Returns a function that removes the listener.
   */
  onReconnect(listener: () => void): () => void;
  /**
   * Lag, unacknowledged and redelivered messages of every durable consumer this bus runs (NATS: JetStream consumer
   * info; the in-process bus has no backlog worth reporting and leaves it out). For metrics and `status`.
   */
  consumerStats?(): Promise<ConsumerStats[]>;
  /** The same figures for named durables, read from the server whether or not this process runs them (the CLI). */
  durableStats?(durables: readonly { context: Context; durable: string }[]): Promise<ConsumerStats[]>;
  /** The last sequence stored in each context's stream (NATS), for the operators' `status`. */
  streamSequences?(contexts: readonly Context[]): Promise<Record<string, number | null>>;
  /** Drains subscriptions and closes the connection. */
  close(): Promise<void>;
}

/** One durable consumer's figures (JetStream consumer info). */
export interface ConsumerStats {
  durable: string;
  stream: string;
  /** Messages of the stream not yet delivered to it. */
  pending: number;
  /** Delivered, not yet acknowledged. */
  ackPending: number;
  /** Currently being redelivered. */
  redelivered: number;
}
