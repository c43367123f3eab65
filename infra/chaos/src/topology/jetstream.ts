import { connect } from 'nats';

export interface ConsumerBacklog {
  /** Messages in the stream the durable consumers have not been handed yet. */
  pending: number;
  /** Handed out and not acknowledged (in flight, or held by a process that died until ack_wait passes). */
  ackPending: number;
  consumers: number;
}

/** How far behind the namespace's durable consumers are, read from JetStream's own bookkeeping. */
export async function consumerBacklog(url: string, namespace: string): Promise<ConsumerBacklog> {
  const nc = await connect({ servers: url, timeout: 2_000, reconnect: false, name: 'ques-chaos-harness' });
  try {
    const jsm = await nc.jetstreamManager({ timeout: 2_000 });
    const prefix = `${namespace.toUpperCase()}_`;
    const backlog: ConsumerBacklog = { pending: 0, ackPending: 0, consumers: 0 };
    for await (const stream of jsm.streams.list()) {
      if (!stream.config.name.startsWith(prefix)) continue;
      for await (const consumer of jsm.consumers.list(stream.config.name)) {
        backlog.consumers += 1;
        backlog.pending += consumer.num_pending;
        backlog.ackPending += consumer.num_ack_pending;
      }
    }
    return backlog;
  } finally {
    await nc.close().catch(() => {});
  }
}
