import { StorageType, type JetStreamClient, type KV } from 'nats';

// How long a handler failure is remembered. Only an upper bound for how late failures still count: a poison message
// reaches maxDeliver failures within a minute at the default backoff.
const FAILURE_LEDGER_TTL_MS = 24 * 60 * 60_000;

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
  return namespace
    ? `${namespace.toUpperCase().replace(/[^A-Z0-9_]/g, '_')}_HANDLER_FAILURES`
    : 'HANDLER_FAILURES';
}
