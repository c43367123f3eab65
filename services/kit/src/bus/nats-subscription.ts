import type { Consumer, ConsumerMessages, JetStreamClient, JetStreamManager, JsMsg } from 'nats';
import type { Logger } from 'pino';
import { isConnectionLoss } from '../db/connection-errors.js';
import type { ConsumerStats, PoisonMessage, SubscriptionSpec } from './bus.js';
import type { FailureLedger } from './failure-ledger.js';
import { ACK_WAIT_MS, bindConsumer, consumerInfo } from './nats-consumer.js';
import { appSubject, decodeEnvelope, errorMessage, retryDelay, subjectMatches } from './naming.js';

// One durable pull consumer of the NATS bus (./nats-bus.ts): binding, the pull loop, acks, backoff and poison.

// Live instances keep every message they hold from expiring (ACK_WAIT_MS) with `working()` heartbeats.
const HEARTBEAT_MS = ACK_WAIT_MS / 5;
// A handler that lost its database connection is retried at its backoff, but never later than this: the message
// waits for the database, not for a schedule meant for failing handlers.
const CONNECTION_LOSS_MAX_RETRY_MS = 2_000;
const RESTART_DELAY_MS = 1_000;
// Messages held by one instance are not available to the others, so take few at a time.
const PULL_BATCH = 16;
// Each pull request ends on the server after this long (or when PULL_BATCH arrived), so a stopping subscription
// waits at most this long for its current request to end before handing back (nak) what it did not handle.
const PULL_EXPIRES_MS = 1_000;

export interface NatsSubscriptionOptions {
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

export class NatsSubscription {
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
    const info = await consumerInfo(this.o).catch(() => null);
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
  /** Binds the durable consumer (created or reconciled); remembers whether messages must be filtered here. */
  private async bind(): Promise<Consumer> {
    const bound = await bindConsumer(this.o);
    this.clientFilter = bound.clientFilter;
    return bound.consumer;
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
    const heartbeat = setInterval(
      () => held.forEach((entry) => settle(() => entry.msg.working())),
      HEARTBEAT_MS,
    );
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
        await this.poison(msg, {
          consumer: spec.durable,
          subject,
          payload,
          eventId,
          error: decoded.error,
          attempts: delivery,
        });
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
          log.warn(
            { err, subject, eventId: envelope.id, delivery, retryInMs: delay },
            'handler lost its database connection; will retry (not a failure)',
          );
          nakAfter(msg, delay);
          return;
        }
        const failures = await this.o.failures.add(spec.durable, envelope.id);
        if (failures >= maxDeliver) {
          log.warn(
            { err, subject, eventId: envelope.id, failures },
            'handler failed for the last allowed time',
          );
          await this.poison(msg, {
            consumer: spec.durable,
            subject,
            payload,
            eventId: envelope.id,
            error: errorMessage(err),
            attempts: failures,
          });
        } else {
          const delay = retryDelay(backoffMs, failures);
          log.warn(
            { err, subject, eventId: envelope.id, failures, retryInMs: delay },
            'handler failed; will retry',
          );
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
      log.error(
        { err, subject: poison.subject, eventId: poison.eventId, retryInMs: delay },
        'could not park poison message; will retry',
      );
      nakAfter(msg, delay);
      return;
    }
    log.warn(
      { subject: poison.subject, eventId: poison.eventId, attempts: poison.attempts, error: poison.error },
      'message parked as poison',
    );
    settle(() => msg.term());
  }
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
