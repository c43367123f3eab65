import {
  connect,
  DebugEvents,
  Events,
  nanos,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  type StreamInfo,
} from 'nats';
import type { Logger } from 'pino';
import type { Context, EventEnvelope } from '@ques/contracts';
import type {
  ConsumerStats,
  EventBus,
  OutgoingMessage,
  SerialisedEnvelope,
  Subscription,
  SubscriptionSpec,
  WatchSpec,
} from './bus.js';
import {
  apiErrorCode,
  appSubject,
  assertSubjectsInContext,
  assertValidNamespace,
  decodeEnvelope,
  streamName,
  streamSubject,
  wireSubject,
} from './naming.js';
import { FailureLedger, failureLedgerBucket } from './failure-ledger.js';
import { JetStreamPublisher } from './nats-publish.js';
import { NatsSubscription } from './nats-subscription.js';

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

const DUPLICATE_WINDOW_MS = 2 * 60_000;
// Integration events are transport, not the record (the event stores are): they age out, and with them any personal
// data of people who deleted their account (ADR 0010). History for a new consumer comes from the replay tool.
const STREAM_MAX_AGE_MS = 30 * 24 * 60 * 60_000;
const DEFAULT_MAX_DELIVER = 5;
const DEFAULT_BACKOFF_MS = [200, 1_000, 5_000, 15_000];
// The server's "not found" error codes (JetStream API err_code).
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
  private readonly publisher: JetStreamPublisher;
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
    this.publisher = new JetStreamPublisher(nc, namespace);
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
      return new NatsEventBus(
        nc,
        jsm,
        nc.jetstream(),
        opts.namespace || undefined,
        log,
        opts.streamReplicas ?? 1,
      );
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  async ensureStreams(contexts: readonly Context[]): Promise<void> {
    await Promise.all([...new Set(contexts)].map((context) => this.ensureStream(context)));
  }

  /** Publishes with `Nats-Msg-Id`, acked by JetStream: see `JetStreamPublisher` (./nats-publish.ts). */
  publish(messages: readonly OutgoingMessage<EventEnvelope | SerialisedEnvelope>[]): Promise<void> {
    return this.publisher.publish(messages);
  }

  async subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    if (this.closing) throw new Error('event bus is closed');
    assertSubjectsInContext(spec.context, spec.subjects);
    const maxDeliver = spec.maxDeliver ?? DEFAULT_MAX_DELIVER;
    if (!Number.isInteger(maxDeliver) || maxDeliver < 1)
      throw new Error(`maxDeliver must be a positive integer, got ${maxDeliver}`);
    const concurrency = spec.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
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
        return info
          ? {
              durable,
              stream,
              pending: info.num_pending,
              ackPending: info.num_ack_pending,
              redelivered: info.num_redelivered,
            }
          : null;
      }),
    );
    return stats.filter((s): s is ConsumerStats => s !== null);
  }

  async streamSequences(contexts: readonly Context[]): Promise<Record<string, number | null>> {
    const entries = await Promise.all(
      contexts.map(
        async (context) =>
          [
            context,
            (await this.streamInfo(streamName(context, this.namespace)))?.state.last_seq ?? null,
          ] as const,
      ),
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
      this.log.warn(
        { stream: name, storage: config.storage },
        'stream is not file-backed; storage cannot be changed in place',
      );
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
    const [major = 0, minor = 0] = (this.nc.info?.version ?? '0.0.0')
      .split('.')
      .map((n) => Number.parseInt(n, 10));
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

export { FailureLedger, failureLedgerBucket } from './failure-ledger.js';
