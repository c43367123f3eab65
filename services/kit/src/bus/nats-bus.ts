import {
  AckPolicy,
  connect,
  createInbox,
  DebugEvents,
  DeliverPolicy,
  Events,
  headers,
  nanos,
  StorageType,
  type Consumer,
  type ConsumerConfig,
  type ConsumerInfo,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type KV,
  type NatsConnection,
  type StreamInfo,
} from 'nats';
import type { Logger } from 'pino';
import type { Context, EventEnvelope } from '@ques/contracts';
import { isConnectionLoss } from '../db/connection-errors.js';
import { envelopeJson, type ConsumerStats, type EventBus, type OutgoingMessage, type SerialisedEnvelope, type PoisonMessage, type Subscription, type SubscriptionSpec, type WatchSpec } from './bus.js';
import {
  appSubject,
  assertSubjectsInContext,
  assertValidNamespace,
  decodeEnvelope,
  errorMessage,
  retryDelay,
  streamName,
  streamSubject,
  subjectMatches,
  wireSubject,
} from './naming.js';

interface AckInbox {
  prefix: string;
  /** Publish calls awaiting acks, by batch id (the reply subject's second-to-last token). */
  pending: Map<string, PendingBatch>;
}

/** One `publish` call's messages: which are acked, how many still wait, what failed. */
interface PendingBatch {
  acked: Uint8Array;
  waiting: number;
  failures: Error[];
  settle: () => void;
}

function ackSucceeded(batch: PendingBatch, index: number): void {
  if (batch.acked[index] !== 0 || index >= batch.acked.length) return; // a repeat, or not ours
  batch.acked[index] = 1;
  if (--batch.waiting === 0) batch.settle();
}

function ackFailed(batch: PendingBatch, index: number, error: Error): void {
  if (batch.acked[index] !== 0 || index >= batch.acked.length) return;
  batch.acked[index] = 2;
  batch.failures.push(error);
  if (--batch.waiting === 0) batch.settle();
}

export interface NatsEventBusOptions {
  servers: string | string[];
  /** Connection name, shown by the server's monitoring. */
  name: string;
  /** Isolates subjects and streams (tests running in parallel on one server). */
  namespace?: string;
  log: Logger;
  /** Copies of each stream in a JetStream cluster (3 in production: R3); default 1. */
  streamReplicas?: number;
}

// The outbox relay retries a failed batch, so failing fast beats holding its advisory lock on a dead server.
const PUBLISH_TIMEOUT_MS = 2_000;
const DUPLICATE_WINDOW_MS = 2 * 60_000;
// How long a message delivered to an instance that then died waits before another instance gets it. Live instances
// keep every message they hold from expiring with `working()` heartbeats, so a slow handler is not redelivered.
const ACK_WAIT_MS = 5_000;
const HEARTBEAT_MS = ACK_WAIT_MS / 5;
// Integration events are transport, not the record (the event stores are): they age out, and with them any personal
// data of people who deleted their account (ADR 0010). History for a new consumer comes from the replay tool.
const STREAM_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
const DEFAULT_MAX_DELIVER = 5;
const DEFAULT_BACKOFF_MS = [200, 1_000, 5_000, 15_000];
// A handler that lost its database connection is retried at its backoff, but never later than this: the message
// waits for the database, not for a schedule meant for failing handlers.
const CONNECTION_LOSS_MAX_RETRY_MS = 2_000;
// How long a handler failure is remembered. Only an upper bound for how late failures still count: a poison message
// reaches maxDeliver failures within a minute at the default backoff.
const FAILURE_LEDGER_TTL_MS = 24 * 60 * 60_000;
const RESTART_DELAY_MS = 1_000;
// Messages held by one instance are not available to the others, so take few at a time.
const PULL_BATCH = 16;
// Each pull request ends on the server after this long (or when PULL_BATCH arrived), so a stopping subscription
// waits at most this long for its current request to end before handing back (nak) what it did not handle.
const PULL_EXPIRES_MS = 1_000;
// The server's "not found" error codes (JetStream API err_code).
const CONSUMER_NOT_FOUND = 10014;
const STREAM_NOT_FOUND = 10059;

/**
 * The event bus on NATS JetStream: one file-backed stream per context, deduplicated by msgID, read through durable
 * pull consumers with explicit acks. Instances that subscribe with the same durable name share that consumer, so
 * JetStream splits the messages between them.
 */
export class NatsEventBus implements EventBus {
  /**
   * Batches the relay may have in flight: acks overlap across batches, the connection keeps the order (ADR 0026). Four
   * of the relay's 1,000-row batches keep 4,000 messages out, as eight of 500 did, so no batch's ack timer waits behind
   * more than before (ADR 0038).
   */
  readonly publishWindow = 4;
  private acks: AckInbox | null = null;
  private ackSeq = 0;
  private connected = true;
  private closing = false;
  private readonly subscriptions = new Set<NatsSubscription>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly failures: FailureLedger;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly namespace: string | undefined,
    private readonly log: Logger,
    private readonly streamReplicas = 1,
  ) {
    this.failures = new FailureLedger(js, failureLedgerBucket(namespace));
    void this.watchStatus();
  }

  static async connect(opts: NatsEventBusOptions): Promise<NatsEventBus> {
    if (opts.namespace) assertValidNamespace(opts.namespace);
    const nc = await connect({
      servers: opts.servers,
      name: opts.name,
      // A service outlives any NATS restart: it keeps trying and reports unhealthy meanwhile.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      // Notice a silently dead server in ~30 s instead of the default ~4 min.
      pingInterval: 10_000,
      maxPingOut: 3,
      // No stack trace captured per request: an Error built for every publish was ~8 % of the relay's CPU (ADR 0026).
      noAsyncTraces: true,
    });
    try {
      const jsm = await nc.jetstreamManager();
      const log = opts.log.child({ bus: 'nats', ...(opts.namespace ? { namespace: opts.namespace } : {}) });
      return new NatsEventBus(nc, jsm, nc.jetstream(), opts.namespace || undefined, log, opts.streamReplicas ?? 1);
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  async ensureStreams(contexts: readonly Context[]): Promise<void> {
    await Promise.all([...new Set(contexts)].map((context) => this.ensureStream(context)));
  }

  /**
   * JetStream's asynchronous publish, by hand (ADR 0026): each message goes out as a core publish with `Nats-Msg-Id`
   * and a reply subject under one long-lived inbox, and its ack (or error, or the server's 503 "no responders" when no
   * stream takes the subject) comes back there. All are written before any ack is awaited; the connection keeps them
   * in order. One timer covers the whole call. `js.publish` did the same per message with a request object, a timer
   * and two Error objects each (the library builds a "cancelled" error on every success): most of the relay's CPU.
   *
   * The call is tracked as one batch, not one promise per message (ADR 0036): the reply subject names the batch and
   * the message's index in it, an ack ticks the index off, and the batch settles when every index is ticked or the
   * timer fires. An ack is parsed as JSON only when it is not a plain success.
   */
  async publish(messages: readonly OutgoingMessage<EventEnvelope | SerialisedEnvelope>[]): Promise<void> {
    if (messages.length === 0) return;
    const inbox = this.ackInbox();
    const id = (this.ackSeq++).toString(36);
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const batch: PendingBatch = { acked: new Uint8Array(messages.length), waiting: messages.length, failures: [], settle };
    inbox.pending.set(id, batch);
    const replyPrefix = `${inbox.prefix}.${id}.`;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      try {
        const h = headers();
        h.set('Nats-Msg-Id', message.msgId);
        h.set('correlation-id', message.envelope.correlationId);
        this.nc.publish(wireSubject(message.subject, this.namespace), envelopeJson(message.envelope), { reply: replyPrefix + i.toString(36), headers: h });
      } catch (err) {
        ackFailed(batch, i, err instanceof Error ? err : new Error(String(err)));
      }
    }
    const timer = setTimeout(() => {
      for (let i = 0; i < batch.acked.length; i++) {
        if (!batch.acked[i]) ackFailed(batch, i, new Error(`TIMEOUT: no JetStream ack within ${PUBLISH_TIMEOUT_MS} ms`));
      }
    }, PUBLISH_TIMEOUT_MS);
    try {
      if (batch.waiting > 0) await settled;
    } finally {
      clearTimeout(timer);
      inbox.pending.delete(id);
    }
    const { failures } = batch;
    if (failures.length > 0) {
      throw new AggregateError(failures, `${failures.length} of ${messages.length} messages were not stored by JetStream: ${errorMessage(failures[0])}`);
    }
  }

  private ackInbox(): AckInbox {
    if (this.acks) return this.acks;
    const acks: AckInbox = { prefix: createInbox(), pending: new Map() };
    const decoder = new TextDecoder();
    const from = acks.prefix.length + 1;
    this.nc.subscribe(`${acks.prefix}.*.*`, {
      callback: (err, msg) => {
        if (err) return;
        const dot = msg.subject.indexOf('.', from);
        const batch = acks.pending.get(msg.subject.slice(from, dot));
        if (!batch) return; // timed out already
        const index = Number.parseInt(msg.subject.slice(dot + 1), 36);
        if (msg.headers?.hasError) {
          ackFailed(batch, index, new Error(`JetStream did not store the message: ${msg.headers.code} ${msg.headers.description}`));
          return;
        }
        const text = decoder.decode(msg.data);
        // A success is `{"stream":…,"seq":…}` (with `"duplicate":true` for a msgID seen before); only an error says so.
        if (!text.includes('"error"')) {
          ackSucceeded(batch, index);
          return;
        }
        try {
          const ack = JSON.parse(text) as { error?: { description?: string; code?: number } };
          if (ack.error) ackFailed(batch, index, new Error(`JetStream did not store the message: ${ack.error.code ?? ''} ${ack.error.description ?? ''}`));
          else ackSucceeded(batch, index);
        } catch (parseError) {
          ackFailed(batch, index, parseError instanceof Error ? parseError : new Error(String(parseError)));
        }
      },
    });
    this.acks = acks;
    return acks;
  }

  async subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    if (this.closing) throw new Error('event bus is closed');
    assertSubjectsInContext(spec.context, spec.subjects);
    const maxDeliver = spec.maxDeliver ?? DEFAULT_MAX_DELIVER;
    if (!Number.isInteger(maxDeliver) || maxDeliver < 1) throw new Error(`maxDeliver must be a positive integer, got ${maxDeliver}`);
    const concurrency = spec.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
    const subscription = new NatsSubscription({
      spec,
      maxDeliver,
      concurrency,
      backoffMs: spec.backoffMs && spec.backoffMs.length > 0 ? spec.backoffMs : DEFAULT_BACKOFF_MS,
      stream: streamName(spec.context, this.namespace),
      namespace: this.namespace,
      filtersSupported: () => this.supportsFilterChanges(),
      failures: this.failures,
      jsm: this.jsm,
      js: this.js,
      log: this.log.child({ consumer: spec.durable }),
    });
    // Binding once up front makes configuration errors (missing stream, bad subject) reach the caller.
    await subscription.start();
    this.subscriptions.add(subscription);
    return {
      stop: async () => {
        await subscription.stop();
        this.subscriptions.delete(subscription);
      },
    };
  }

  async consumerStats(): Promise<ConsumerStats[]> {
    const stats = await Promise.all([...this.subscriptions].map((s) => s.stats()));
    return stats.filter((s): s is ConsumerStats => s !== null);
  }

  async durableStats(durables: readonly { context: Context; durable: string }[]): Promise<ConsumerStats[]> {
    const stats = await Promise.all(
      durables.map(async ({ context, durable }) => {
        const stream = streamName(context, this.namespace);
        const info = await this.jsm.consumers.info(stream, durable).catch(() => null);
        return info ? { durable, stream, pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered } : null;
      }),
    );
    return stats.filter((s): s is ConsumerStats => s !== null);
  }

  async streamSequences(contexts: readonly Context[]): Promise<Record<string, number | null>> {
    const entries = await Promise.all(
      contexts.map(async (context) => [context, (await this.streamInfo(streamName(context, this.namespace)))?.state.last_seq ?? null] as const),
    );
    return Object.fromEntries(entries);
  }

  isHealthy(): boolean {
    return this.connected && !this.closing && !this.nc.isClosed();
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /**
   * A core NATS subscription on the wire subjects: JetStream stores a published event and the server also hands it
   * to every plain subscriber of its subject, so a watch costs no consumer and leaves nothing behind. Messages sent
   * while this connection is down are not seen (a watch is a hint, see WatchSpec).
   */
  async watch(spec: WatchSpec): Promise<Subscription> {
    const decoder = new TextDecoder();
    const subs = spec.subjects.map((pattern) =>
      this.nc.subscribe(wireSubject(pattern, this.namespace), {
        callback: (err, msg) => {
          if (err) return;
          const decoded = decodeEnvelope(decoder.decode(msg.data));
          if (!decoded.ok) return;
          const subject = appSubject(msg.subject, this.namespace);
          void Promise.resolve()
            .then(() => spec.handler(decoded.envelope, subject))
            .catch((error: unknown) => this.log.warn({ err: error, subject }, 'watcher failed'));
        },
      }),
    );
    return {
      stop: async () => {
        for (const sub of subs) if (!sub.isClosed()) sub.unsubscribe();
      },
    };
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.subscriptions.clear();
    if (this.nc.isClosed()) return;
    // Draining flushes pending acks; while disconnected it could wait for a server that never returns.
    if (this.connected) await this.nc.drain();
    else await this.nc.close();
  }

  private async ensureStream(context: Context): Promise<void> {
    const name = streamName(context, this.namespace);
    const subjects = [streamSubject(context, this.namespace)];
    const duplicateWindow = nanos(DUPLICATE_WINDOW_MS);
    const maxAge = nanos(STREAM_MAX_AGE_MS);
    let info = await this.streamInfo(name);
    if (!info) {
      try {
        await this.jsm.streams.add({
          name,
          subjects,
          storage: StorageType.File,
          duplicate_window: duplicateWindow,
          max_age: maxAge,
          num_replicas: this.streamReplicas,
        });
        this.log.info({ stream: name, subjects }, 'stream created');
        return;
      } catch (err) {
        // Another instance may have created it at the same moment; then reconcile with what it made.
        info = await this.streamInfo(name);
        if (!info) throw err;
      }
    }
    const { config } = info;
    if (config.storage !== StorageType.File) {
      this.log.warn({ stream: name, storage: config.storage }, 'stream is not file-backed; storage cannot be changed in place');
    }
    const sameSubjects = config.subjects.length === 1 && config.subjects[0] === subjects[0];
    // A longer window set by operators is kept: the requirement is "at least two minutes".
    const windowOk = config.duplicate_window >= duplicateWindow;
    // A shorter retention set by operators is kept; unlimited (0) or longer is brought down to the bound.
    const ageOk = config.max_age > 0 && config.max_age <= maxAge;
    // More copies set by operators are kept; fewer are raised (a cluster moves a stream to R3 in place).
    const replicasOk = (config.num_replicas ?? 1) >= this.streamReplicas;
    if (!sameSubjects || !windowOk || !ageOk || !replicasOk) {
      await this.jsm.streams.update(name, {
        subjects,
        duplicate_window: windowOk ? config.duplicate_window : duplicateWindow,
        max_age: ageOk ? config.max_age : maxAge,
        ...(replicasOk ? {} : { num_replicas: this.streamReplicas }),
      });
      this.log.info({ stream: name, subjects }, 'stream updated');
    }
  }

  private async streamInfo(name: string): Promise<StreamInfo | null> {
    try {
      return await this.jsm.streams.info(name);
    } catch (err) {
      if (apiErrorCode(err) === STREAM_NOT_FOUND) return null;
      throw err;
    }
  }

  /**
   * NATS server 2.10 brought `filter_subjects` (several filters on one consumer) and reliable filter updates: 2.9
   * accepts a changed filter but then stops delivering to the consumer.
   */
  private supportsFilterChanges(): boolean {
    const [major = 0, minor = 0] = (this.nc.info?.version ?? '0.0.0').split('.').map((n) => Number.parseInt(n, 10));
    return major > 2 || (major === 2 && minor >= 10);
  }

  private async watchStatus(): Promise<void> {
    try {
      for await (const status of this.nc.status()) {
        switch (status.type) {
          case Events.Disconnect:
            this.connected = false;
            this.log.warn({ server: status.data }, 'NATS disconnected; reconnecting');
            break;
          case Events.Reconnect:
            this.connected = true;
            this.log.info({ server: status.data }, 'NATS reconnected');
            for (const listener of this.reconnectListeners) {
              try {
                listener();
              } catch (err) {
                this.log.error({ err }, 'NATS reconnect listener failed');
              }
            }
            break;
          case Events.LDM:
            this.log.warn({ server: status.data }, 'NATS server entering lame duck mode');
            break;
          case Events.Error:
            this.log.error({ err: status.data }, 'NATS asynchronous error');
            break;
          case Events.Update:
          case DebugEvents.Reconnecting:
          case DebugEvents.PingTimer:
          case DebugEvents.StaleConnection:
          case DebugEvents.ClientInitiatedReconnect:
            break;
          default: {
            const unhandled: never = status.type;
            this.log.debug({ status: unhandled }, 'unknown NATS status');
          }
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'NATS status stream ended');
    }
    // The iterator only ends with the connection.
    this.connected = false;
  }
}

interface NatsSubscriptionOptions {
  spec: SubscriptionSpec;
  maxDeliver: number;
  concurrency: number;
  backoffMs: readonly number[];
  stream: string;
  namespace: string | undefined;
  filtersSupported: () => boolean;
  failures: FailureLedger;
  jsm: JetStreamManager;
  js: JetStreamClient;
  log: Logger;
}

type FilterConfig = Pick<ConsumerConfig, 'filter_subject' | 'filter_subjects'>;

class NatsSubscription {
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** Set when the server could not filter by every subject: messages outside them are acked unseen. */
  private clientFilter: string[] | null = null;

  constructor(private readonly o: NatsSubscriptionOptions) {}

  async start(): Promise<void> {
    const consumer = await this.bind();
    this.loop = this.run(consumer);
  }

  async stop(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      this.wake?.();
      // No new pull request starts. The current one is left to end on the server (≤ PULL_EXPIRES_MS): closing it
      // early would drop messages already on the wire, which then wait out ack_wait before anyone else may take them.
    }
    await this.loop;
  }

  /** This durable's lag figures; null when the server cannot answer (disconnected, consumer gone). */
  async stats(): Promise<ConsumerStats | null> {
    const info = await this.consumerInfo().catch(() => null);
    if (!info) return null;
    return {
      durable: this.o.spec.durable,
      stream: this.o.stream,
      pending: info.num_pending,
      ackPending: info.num_ack_pending,
      redelivered: info.num_redelivered,
    };
  }

  /** Creates the durable consumer, or brings an existing one to this configuration, and returns a handle on it. */
  private async bind(): Promise<Consumer> {
    const { spec, stream, jsm } = this.o;
    const desired = this.desiredConfig();
    let info = await this.consumerInfo();
    if (!info) {
      try {
        info = await jsm.consumers.add(stream, desired);
        this.o.log.info({ stream, filters: filtersOf(desired) }, 'consumer created');
      } catch (err) {
        // Another instance sharing the durable may have won the race; reconcile with its consumer.
        info = await this.consumerInfo();
        if (!info) throw err;
      }
    }
    const current = info.config;
    const filtersFixed = !this.o.filtersSupported();
    if (filtersFixed && !sameSet(filtersOf(current), filtersOf(desired))) {
      // Rewriting the filter on this server would stall the consumer; keep it and filter client-side.
      this.o.log.warn(
        { stream, current: filtersOf(current), wanted: filtersOf(desired) },
        'consumer filter differs but this NATS server (< 2.10) cannot change it safely; delete the consumer to apply',
      );
      desired.filter_subject = current.filter_subject;
      desired.filter_subjects = current.filter_subjects;
    }
    if (current.ack_policy !== AckPolicy.Explicit || current.deliver_policy !== DeliverPolicy.All) {
      throw new Error(
        `consumer ${spec.durable} on ${stream} exists with ack_policy=${current.ack_policy}, deliver_policy=${current.deliver_policy}; ` +
          'these cannot be changed in place, delete the consumer to recreate it',
      );
    }
    // Only a real difference triggers an update, so instances sharing the durable do not rewrite it on every start.
    if (current.ack_wait !== desired.ack_wait || current.max_deliver !== desired.max_deliver || !sameSet(filtersOf(current), filtersOf(desired))) {
      await jsm.consumers.update(stream, spec.durable, {
        ack_wait: desired.ack_wait,
        max_deliver: desired.max_deliver,
        // Exactly one of the two is set; the undefined one is dropped from the request, which clears it.
        filter_subject: desired.filter_subject,
        filter_subjects: desired.filter_subjects,
      });
      this.o.log.info({ stream, filters: filtersOf(desired) }, 'consumer updated');
    }
    return this.o.js.consumers.get(stream, spec.durable);
  }

  private desiredConfig(): Partial<ConsumerConfig> & { ack_wait: number; max_deliver: number } {
    const { spec, namespace } = this.o;
    const wire = [...new Set(spec.subjects.map((s) => wireSubject(s, namespace)))];
    const contextWide = streamSubject(spec.context, namespace);
    let filter: FilterConfig;
    if (!this.o.filtersSupported()) {
      // Servers before 2.10 take one filter and cannot change it later, so read the whole context (a filter that
      // never changes between releases) and drop what this subscription doesn't want here.
      filter = { filter_subject: contextWide };
      this.clientFilter = wire.includes(contextWide) ? null : spec.subjects;
    } else if (wire.length === 1) {
      filter = { filter_subject: wire[0] };
      this.clientFilter = null;
    } else {
      filter = { filter_subjects: wire };
      this.clientFilter = null;
    }
    return {
      durable_name: spec.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      // Unbounded on the server on purpose: the poison decision is ours, by handler failures (FailureLedger), not by
      // deliveries — shutdowns, crashes and lost connections redeliver messages that never failed. A server-side
      // limit would also silently drop a message whose parking failed (onPoison) instead of dead-lettering it.
      max_deliver: -1,
      ...filter,
    };
  }

  private async consumerInfo(): Promise<ConsumerInfo | null> {
    try {
      return await this.o.jsm.consumers.info(this.o.stream, this.o.spec.durable);
    } catch (err) {
      if (apiErrorCode(err) === CONSUMER_NOT_FOUND) return null;
      throw err;
    }
  }

  private async run(first: Consumer): Promise<void> {
    let consumer: Consumer | null = first;
    while (!this.stopped) {
      try {
        consumer ??= await this.bind();
        if (this.stopped) break;
        // One bounded pull request at a time; a missing stream/consumer fails the fetch and this loop recreates it.
        await this.handleBatch(await consumer.fetch({ max_messages: PULL_BATCH, expires: PULL_EXPIRES_MS }));
        continue;
      } catch (err) {
        if (!this.stopped) this.o.log.warn({ err }, 'consume loop failed; restarting');
      }
      consumer = null;
      if (!this.stopped) await this.pause(RESTART_DELAY_MS);
    }
  }

  /**
   * Handles one pull response in order. Messages are taken off the wire as they arrive, not when their turn comes,
   * so every message this instance holds — the one being handled and those waiting behind it — gets `working()`
   * heartbeats, and none is redelivered elsewhere for having waited out ack_wait in this buffer. A message is handled
   * the moment it arrives when its turn has come: a pull request is open for up to PULL_BATCH messages, but nothing
   * waits for it to fill or to expire.
   *
   * With `concurrency` above 1, up to that many messages are handled at once, never two of the same event stream: a
   * message starts only when no earlier message of its stream is still held (ADR 0036). With 1, one at a time.
   *
   * Stopping finishes the messages in hand, then hands the rest back (nak) — but only once this pull request has
   * ended. A nak while it is still open makes the server deliver the message straight back into it, to an instance
   * that will not handle it: each round trip counted as a delivery, and one stop used to burn a message's every
   * allowed delivery in about a second.
   */
  private async handleBatch(messages: ConsumerMessages): Promise<void> {
    const { concurrency } = this.o;
    interface Held {
      msg: JsMsg;
      /** The event stream the message belongs to; messages of one key run one after the other. */
      key: string;
      running: boolean;
    }
    const held: Held[] = [];
    let received = false;
    let active = 0;
    let changed = false;
    let wakeLoop = null as (() => void) | null;
    const signal = () => {
      changed = true;
      wakeLoop?.();
    };
    const nextChange = async () => {
      if (!changed) await new Promise<void>((resolve) => (wakeLoop = resolve));
      wakeLoop = null;
      changed = false;
    };
    const receiving = (async () => {
      try {
        for await (const msg of messages) {
          held.push({ msg, key: concurrency > 1 ? streamKey(msg) : '', running: false });
          signal();
        }
      } finally {
        received = true;
        signal();
      }
    })();
    const start = (entry: Held) => {
      entry.running = true;
      active += 1;
      void this.process(entry.msg).finally(() => {
        held.splice(held.indexOf(entry), 1);
        active -= 1;
        signal();
      });
    };
    const heartbeat = setInterval(() => held.forEach((entry) => settle(() => entry.msg.working())), HEARTBEAT_MS);
    heartbeat.unref();
    try {
      while (!this.stopped) {
        const busy = new Set<string>();
        for (const entry of held) {
          if (active >= concurrency) break;
          if (!entry.running && !busy.has(entry.key)) start(entry);
          busy.add(entry.key);
        }
        if (received && held.length === 0) break;
        await nextChange();
      }
      while (active > 0) await nextChange();
      if (this.stopped) {
        while (!received) await nextChange();
        // No pull request of this instance is open any more, so these go to another instance at once.
        for (const entry of held.splice(0)) nakAfter(entry.msg, 0);
      }
    } finally {
      clearInterval(heartbeat);
    }
    await receiving; // rethrows a failed pull (e.g. consumer deleted) once what did arrive is handled
  }

  private async pause(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }

  /**
   * Never throws: one bad message must not end the loop. A message is poison when its handler has failed on
   * maxDeliver deliveries (counted in the FailureLedger, shared by every instance) — not after maxDeliver
   * deliveries: a shutdown, a crash or a lost connection redelivers messages whose handler never failed. A handler
   * that lost its database connection has not failed either: it is retried until the database is back.
   */
  private async process(msg: JsMsg): Promise<void> {
    const { spec, maxDeliver, backoffMs, log } = this.o;
    const subject = appSubject(msg.subject, this.o.namespace);
    // deliveryCount is 1 on the first delivery (the deprecated redeliveryCount holds the same number).
    const delivery = msg.info.deliveryCount;
    try {
      if (this.clientFilter && !this.clientFilter.some((p) => subjectMatches(p, subject))) {
        settle(() => msg.ack());
        return;
      }
      const payload = msg.string();
      const decoded = decodeEnvelope(payload);
      if (!decoded.ok) {
        const eventId = decoded.eventId ?? (msg.headers?.get('Nats-Msg-Id') || null);
        await this.poison(msg, { consumer: spec.durable, subject, payload, eventId, error: decoded.error, attempts: delivery });
        return;
      }
      const { envelope } = decoded;
      try {
        await spec.handler(envelope, { attempt: delivery, subject });
        settle(() => msg.ack());
        return;
      } catch (err) {
        if (isConnectionLoss(err)) {
          const delay = Math.min(retryDelay(backoffMs, delivery), CONNECTION_LOSS_MAX_RETRY_MS);
          log.warn({ err, subject, eventId: envelope.id, delivery, retryInMs: delay }, 'handler lost its database connection; will retry (not a failure)');
          nakAfter(msg, delay);
          return;
        }
        const failures = await this.o.failures.add(spec.durable, envelope.id);
        if (failures >= maxDeliver) {
          log.warn({ err, subject, eventId: envelope.id, failures }, 'handler failed for the last allowed time');
          await this.poison(msg, { consumer: spec.durable, subject, payload, eventId: envelope.id, error: errorMessage(err), attempts: failures });
        } else {
          const delay = retryDelay(backoffMs, failures);
          log.warn({ err, subject, eventId: envelope.id, failures, retryInMs: delay }, 'handler failed; will retry');
          nakAfter(msg, delay);
        }
      }
    } catch (err) {
      // Also where a failure that could not be recorded ends up: the message is retried, and counted next time.
      log.error({ err, subject, delivery }, 'message processing failed unexpectedly; will retry');
      nakAfter(msg, retryDelay(backoffMs, delivery));
    }
  }

  private async poison(msg: JsMsg, poison: PoisonMessage): Promise<void> {
    const { spec, backoffMs, log } = this.o;
    try {
      await spec.onPoison(poison);
    } catch (err) {
      // Terminating now would lose the message: leave it on the stream and try parking it again later.
      const delay = retryDelay(backoffMs, backoffMs.length);
      log.error({ err, subject: poison.subject, eventId: poison.eventId, retryInMs: delay }, 'could not park poison message; will retry');
      nakAfter(msg, delay);
      return;
    }
    log.warn({ subject: poison.subject, eventId: poison.eventId, attempts: poison.attempts, error: poison.error }, 'message parked as poison');
    settle(() => msg.term());
  }
}

/**
 * Handler failures per (durable, event id), in a JetStream KV bucket beside the streams: every instance sharing a
 * durable, and every restart, adds to the same count, and nothing but a handler failure does (ADR 0018). Opened on
 * the first failure, so a bus whose handlers never fail never creates it.
 */
export class FailureLedger {
  private kv: Promise<KV> | null = null;

  constructor(
    private readonly js: JetStreamClient,
    private readonly bucket: string,
  ) {}

  /** Records one more failure of `durable`'s handler on `eventId` and returns how many there have been. */
  async add(durable: string, eventId: string): Promise<number> {
    const kv = await this.open();
    const key = `${durable}.${eventId}`;
    const entry = await kv.get(key);
    const failures = (entry?.operation === 'PUT' ? Number.parseInt(entry.string(), 10) || 0 : 0) + 1;
    // A plain put: one message is held by one instance at a time, so two instances do not count the same failure.
    await kv.put(key, String(failures));
    return failures;
  }

  private open(): Promise<KV> {
    this.kv ??= this.js.views
      .kv(this.bucket, { history: 1, ttl: FAILURE_LEDGER_TTL_MS, storage: StorageType.File })
      .catch((err: unknown) => {
        this.kv = null; // try again on the next failure
        throw err;
      });
    return this.kv;
  }
}

/** The KV bucket of handler failures: `HANDLER_FAILURES`, or `<NAMESPACE>_HANDLER_FAILURES` under a namespace. */
export function failureLedgerBucket(namespace?: string): string {
  return namespace ? `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}_HANDLER_FAILURES` : 'HANDLER_FAILURES';
}

/**
 * The event stream of a message (envelope `streamId`), read from its payload; a payload that does not say is a key
 * of its own (the handler will park it), so it holds up no other message.
 */
function streamKey(msg: JsMsg): string {
  try {
    const streamId = (JSON.parse(msg.string()) as { streamId?: unknown }).streamId;
    if (typeof streamId === 'string') return `s:${streamId}`;
  } catch {
    // not JSON: poison, handled on its own
  }
  return `m:${msg.seq}`;
}

/**
 * Acks are fire-and-forget and only throw when the connection is already closed; then the server redelivers after
 * ack_wait, which is the outcome we would ask for anyway.
 */
function settle(ack: () => void): void {
  try {
    ack();
  } catch {
    // see above
  }
}

/**
 * Always with a delay of at least 1 ms: NATS 2.9 mishandles a plain NAK on a pull consumer (it rewinds the consumer,
 * delivering one message twice and leaving another unacked until ack_wait), while a delayed NAK takes the
 * redelivery queue and behaves.
 */
function nakAfter(msg: JsMsg, delayMs: number): void {
  settle(() => msg.nak(Math.max(1, Math.round(delayMs))));
}

function filtersOf(config: FilterConfig): string[] {
  if (config.filter_subjects && config.filter_subjects.length > 0) return config.filter_subjects;
  return config.filter_subject ? [config.filter_subject] : [];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}

function apiErrorCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null || !('api_error' in err)) return undefined;
  const api = (err as { api_error?: { err_code?: number } }).api_error;
  return api?.err_code;
}
