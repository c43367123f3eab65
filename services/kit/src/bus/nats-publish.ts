import { createInbox, headers, type NatsConnection } from 'nats';
import type { EventEnvelope } from '@ques/contracts';
import { envelopeJson, type OutgoingMessage, type SerialisedEnvelope } from './bus.js';
import { errorMessage, wireSubject } from './naming.js';

// The outbox relay retries a failed batch, so failing fast beats holding its advisory lock on a dead server.
const PUBLISH_TIMEOUT_MS = 2_000;

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

/** The bus's publishing half: one long-lived ack inbox per connection, batches tracked by id. */
export class JetStreamPublisher {
  private acks: AckInbox | null = null;
  private ackSeq = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string | undefined,
  ) {}

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
    const batch: PendingBatch = {
      acked: new Uint8Array(messages.length),
      waiting: messages.length,
      failures: [],
      settle,
    };
    inbox.pending.set(id, batch);
    const replyPrefix = `${inbox.prefix}.${id}.`;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      try {
        const h = headers();
        h.set('Nats-Msg-Id', message.msgId);
        h.set('correlation-id', message.envelope.correlationId);
        this.nc.publish(wireSubject(message.subject, this.namespace), envelopeJson(message.envelope), {
          reply: replyPrefix + i.toString(36),
          headers: h,
        });
      } catch (err) {
        ackFailed(batch, i, err instanceof Error ? err : new Error(String(err)));
      }
    }
    const timer = setTimeout(() => {
      for (let i = 0; i < batch.acked.length; i++) {
        if (!batch.acked[i])
          ackFailed(batch, i, new Error(`TIMEOUT: no JetStream ack within ${PUBLISH_TIMEOUT_MS} ms`));
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
      throw new AggregateError(
        failures,
        `${failures.length} of ${messages.length} messages were not stored by JetStream: ${errorMessage(failures[0])}`,
      );
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
          ackFailed(
            batch,
            index,
            new Error(`JetStream did not store the message: ${msg.headers.code} ${msg.headers.description}`),
          );
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
          if (ack.error)
            ackFailed(
              batch,
              index,
              new Error(
                `JetStream did not store the message: ${ack.error.code ?? ''} ${ack.error.description ?? ''}`,
              ),
            );
          else ackSucceeded(batch, index);
        } catch (parseError) {
          ackFailed(batch, index, parseError instanceof Error ? parseError : new Error(String(parseError)));
        }
      },
    });
    this.acks = acks;
    return acks;
  }
}
