import { connect, type ConsumerConfig, type NatsConnection, type StreamConfig } from 'nats';
import { SERVICE_SCHEMAS } from './figures.js';

/** The streams' configuration as a backup keeps it: the record is in the event stores, not in these streams. */
export interface StreamsBackup {
  namespace: string;
  streams: { config: StreamConfig; messages: number; lastSeq: number }[];
  consumers: { stream: string; config: ConsumerConfig }[];
}

/** `IDENTITY`, … or `<NAMESPACE>_IDENTITY`, … : the event streams of a deployment (as the kit's bus names them). */
export function eventStreamNames(namespace: string): string[] {
  const prefix = namespace ? `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}_` : '';
  return SERVICE_SCHEMAS.map((context) => `${prefix}${context.toUpperCase()}`);
}

async function withNats<T>(url: string, fn: (nc: NatsConnection) => Promise<T>): Promise<T> {
  const nc = await connect({ servers: url, timeout: 5_000, reconnect: false, name: 'ques-drill' });
  try {
    return await fn(nc);
  } finally {
    await nc.close().catch(() => {});
  }
}

const STREAM_NOT_FOUND = 10059;
const notFound = (err: unknown) =>
  (err as { api_error?: { err_code?: number } }).api_error?.err_code === STREAM_NOT_FOUND;

/** The event streams' and their durable consumers' configuration (missing streams are left out). */
export async function saveStreams(url: string, namespace: string): Promise<StreamsBackup> {
  return withNats(url, async (nc) => {
    const jsm = await nc.jetstreamManager({ timeout: 5_000 });
    const backup: StreamsBackup = { namespace, streams: [], consumers: [] };
    for (const name of eventStreamNames(namespace)) {
      try {
        const info = await jsm.streams.info(name);
        backup.streams.push({
          config: info.config,
          messages: info.state.messages,
          lastSeq: info.state.last_seq,
        });
        for await (const consumer of jsm.consumers.list(name))
          backup.consumers.push({ stream: name, config: consumer.config });
      } catch (err) {
        if (!notFound(err)) throw err;
      }
    }
    return backup;
  });
}

/** Deletes the deployment's event streams (and with them their consumers); returns the names deleted. */
export async function deleteStreams(url: string, namespace: string): Promise<string[]> {
  return withNats(url, async (nc) => {
    const jsm = await nc.jetstreamManager({ timeout: 5_000 });
    const deleted: string[] = [];
    for (const name of eventStreamNames(namespace)) {
      try {
        if (await jsm.streams.delete(name)) deleted.push(name);
      } catch (err) {
        if (!notFound(err)) throw err;
      }
    }
    return deleted;
  });
}

/**
 * Creates the saved streams that are missing, with their saved configuration (replicas, retention an operator tuned).
 * Consumers are not recreated here: each service creates and reconciles its durables when it subscribes, and a
 * durable made before the republish reads the stream from its start (deliver policy all).
 */
export async function recreateStreams(url: string, backup: StreamsBackup): Promise<string[]> {
  return withNats(url, async (nc) => {
    const jsm = await nc.jetstreamManager({ timeout: 5_000 });
    const created: string[] = [];
    for (const { config } of backup.streams) {
      try {
        await jsm.streams.info(config.name);
        continue;
      } catch (err) {
        if (!notFound(err)) throw err;
      }
      await jsm.streams.add(config);
      created.push(config.name);
    }
    return created;
  });
}

/** Messages in each of the deployment's event streams (null: the stream does not exist). */
export async function streamCounts(url: string, namespace: string): Promise<Record<string, number | null>> {
  return withNats(url, async (nc) => {
    const jsm = await nc.jetstreamManager({ timeout: 5_000 });
    const counts: Record<string, number | null> = {};
    for (const name of eventStreamNames(namespace)) {
      try {
        counts[name] = (await jsm.streams.info(name)).state.messages;
      } catch (err) {
        if (!notFound(err)) throw err;
        counts[name] = null;
      }
    }
    return counts;
  });
}
