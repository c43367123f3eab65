import type { Logger } from 'pino';
import { sql } from 'kysely';
import type { EventBus, OutgoingMessage, SerialisedEnvelope } from '../bus/bus.js';
import type { Database, Leadership } from '../db/database.js';
import { kitView, type KitTables } from '../db/schema.js';
import { fromOtherProcess, onCommitWake } from '../db/commit-wakes.js';
import { outboxChannel } from './event-store.js';

export interface OutboxRelayOptions<DB extends KitTables = KitTables> {
  database: Database<DB>;
  bus: EventBus;
  log: Logger;
  /** Rows per publish batch (default 1,000: half the statements, commits and ack rounds per event of 500, ADR 0038). */
  batchSize?: number;
  /** Fallback poll when no NOTIFY arrives (lost notification, listener reconnecting). */
  pollIntervalMs?: number;
  /** How long a non-leader waits before trying to take over. */
  leaderRetryMs?: number;
  /** Published rows older than this are deleted. */
  retainPublishedMs?: number;
}

/**
 * Waits between failed publish attempts: short, because a failed attempt is cheap (a SELECT, then a publish that
 * fails fast or times out) while every second of backoff is a second of events held back after the fault clears.
 * A returning bus does not wait for it at all (`onReconnect`); the cap covers faults nothing signals the end of.
 */
const RETRY_DELAYS_MS = [100, 200, 400, 800, 1_000];
/** A backlog's ANALYZE of the outbox runs at most this often (see `analyzeBacklog`). */
const ANALYZE_EVERY_MS = 60_000;

interface OutboxRow {
  /** The row's position as text (a bigint), named apart from the column so no ORDER BY can sort by the text. */
  after_position: string;
  event_id: string;
  subject: string;
  /** The stored envelope as JSON text, published as is. */
  json: string;
  correlation_id: string;
}

/**
 * Publishes outbox rows to the bus, in position order, with msgID = event id.
 *
 * It always selects *unpublished* rows rather than "rows after the last position I published": a transaction that
 * took its position early but committed late would otherwise be skipped forever. A crash between publish and
 * marking published republishes the same msgIDs, which JetStream's duplicate window and the consumers'
 * idempotency absorb. Only the holder of the advisory lock publishes, so order holds across instances.
 */
export class OutboxRelay<DB extends KitTables = KitTables> {
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly leaderRetryMs: number;
  private readonly retainPublishedMs: number;
  private running = false;
  private wakeUp: (() => void) | null = null;
  /** Set while a drain waits on batches in flight: a wake lets it read new rows meanwhile. */
  private drainWake: (() => void) | null = null;
  /** The batches published or being published and not yet marked: a read while they are in flight leaves them out. */
  private readonly sending = new Set<{ positions: string[]; last: bigint }>();
  private pending = false;
  private loop: Promise<void> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private offCommitWake: (() => void) | null = null;
  private offReconnect: (() => void) | null = null;
  /** Set when the bus reconnects; a failure seen meanwhile is retried at once instead of backing off. */
  private busReturned = false;
  private leadership: Leadership | null = null;
  private lastCleanup = 0;
  private lastAnalyze = Number.NEGATIVE_INFINITY;
  private published = 0;

  constructor(private readonly opts: OutboxRelayOptions<DB>) {
    this.batchSize = opts.batchSize ?? 1000;
    this.pollIntervalMs = opts.pollIntervalMs ?? 1000;
    this.leaderRetryMs = opts.leaderRetryMs ?? 2000;
    this.retainPublishedMs = opts.retainPublishedMs ?? 24 * 3600_000;
  }

  /** Events published by this instance since start. */
  get publishedCount(): number {
    return this.published;
  }

  get isLeader(): boolean {
    return this.leadership !== null;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const channel = outboxChannel(this.opts.database.schema);
    // This process's appends wake it as their COMMIT returns; other processes' by their NOTIFY (ADR 0046).
    this.offCommitWake = onCommitWake(channel, () => this.wake());
    this.unlisten = await this.opts.database.listen(
      channel,
      fromOtherProcess(() => this.wake()),
    );
    this.offReconnect = this.opts.bus.onReconnect(() => {
      this.busReturned = true;
      this.wake();
    });
    this.loop = this.run();
  }

  /** Asks the relay to drain now (also called by NOTIFY). */
  wake(): void {
    this.pending = true;
    this.wakeUp?.();
    const drainWake = this.drainWake;
    this.drainWake = null;
    drainWake?.();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    this.offCommitWake?.();
    this.offCommitWake = null;
    this.offReconnect?.();
    await this.unlisten?.();
    await this.leadership?.release();
    this.leadership = null;
  }

  /**
   * Publishes everything unpublished right now; returns how many rows it published. For tests and tools.
   *
   * Batches are pipelined (ADR 0026): while the acks of one batch are in flight the next is read and sent, up to the
   * bus's `publishWindow` batches (one on the in-process bus, whose publish runs the handlers); each batch is marked
   * published in one statement once JetStream has stored all of it. A failed batch fails the drain after the batches
   * in flight settle: its rows (and any later unacknowledged ones) stay unpublished and are sent again, msgID = event
   * id, so JetStream's duplicate window absorbs what did get through. Each drain starts over from the lowest
   * unpublished position, so a transaction that committed late is still picked up.
   *
   * A commit that wakes the relay while batches are in flight does not wait for their acks and marks (ADR 0036): the
   * drain reads again at once, from the lowest unpublished position (a late commit), leaving out the rows it has in
   * flight, and sends what it finds behind them on the same connection.
   */
  async drain(): Promise<number> {
    const window = Math.max(1, this.opts.bus.publishWindow ?? 1);
    const inFlight: Promise<number>[] = [];
    let total = 0;
    let after = 0n;
    /** The last read filled a batch: more rows may follow it. */
    let more = true;
    let failed = false;
    try {
      for (;;) {
        if (this.pending && !failed) {
          // A commit since the last read: read again from the start (it may have a lower position).
          this.pending = false;
          after = 0n;
          more = true;
        }
        if (more && !failed && inFlight.length < window) {
          const rows = await this.unpublished(after);
          more = rows.length === this.batchSize;
          if (more) await this.analyzeBacklog();
          if (rows.length > 0) {
            after = BigInt(rows[rows.length - 1]!.after_position);
            const sent = this.publishRows(rows);
            sent.catch(() => (failed = true)); // awaited below, in order
            inFlight.push(sent);
          }
          continue;
        }
        if (inFlight.length === 0) break;
        // The oldest batch settles, or a commit wakes the relay (when a read could go out meanwhile).
        const oldest = inFlight[0]!;
        const settled = oldest.then(
          () => true,
          () => true,
        );
        const woken = !failed && inFlight.length < window ? this.nextWake().then(() => false) : null;
        if (woken ? await Promise.race([settled, woken]) : await settled) total += await inFlight.shift()!;
      }
      return total;
    } finally {
      this.drainWake = null;
      // On a failure, let the other batches settle (their marks land) before the relay backs off and retries.
      await Promise.allSettled(inFlight);
    }
  }

  /**
   * A backlog (a full batch read: the bus was away, or a burst) is a table its statistics do not describe: the last
   * ANALYZE saw a few unpublished rows, so Postgres reads "the first 1,000 unpublished" with a bitmap scan of them
   * all and a sort, once per batch: 25 ms a batch at 50,000 rows, and quadratic in the backlog. Bringing the
   * statistics up to date once (at most a minute apart) turns the read into an index scan in position order that stops
   * at the batch (2 ms). Autovacuum would too, but only on its next round (ADR 0048).
   */
  private async analyzeBacklog(): Promise<void> {
    const now = Date.now();
    if (now - this.lastAnalyze < ANALYZE_EVERY_MS) return;
    this.lastAnalyze = now;
    try {
      await sql`ANALYZE outbox`.execute(this.opts.database.db);
      this.opts.log.debug('outbox relay analysed the outbox (a backlog)');
    } catch (err) {
      this.opts.log.warn({ err }, 'outbox relay could not analyse the outbox');
    }
  }

  /** Resolves at the next `wake()` (a NOTIFY of a commit) during a drain. */
  private nextWake(): Promise<void> {
    return new Promise((resolve) => (this.drainWake = resolve));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = null;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    const { log } = this.opts;
    let failures = 0;
    while (this.running) {
      if (!this.leadership) {
        try {
          this.leadership = await this.opts.database.tryLead('outbox-relay');
        } catch (err) {
          log.warn({ err }, 'outbox relay could not try for leadership');
        }
        if (!this.leadership) {
          await this.sleep(this.leaderRetryMs);
          continue;
        }
        const held = this.leadership;
        void held.lost.then(() => {
          if (this.leadership === held) {
            log.warn('outbox relay lost its leadership session');
            this.leadership = null;
            this.wake();
          }
        });
        log.debug('outbox relay is the leader');
      }
      this.pending = false;
      try {
        await this.drain();
        await this.cleanup();
        failures = 0;
        this.busReturned = false;
      } catch (err) {
        failures += 1;
        // Bus down or database unreachable: rows stay unpublished and are retried; back off to avoid a hot loop.
        log.warn({ err, failures }, 'outbox relay could not publish; will retry');
        if (this.busReturned) {
          // The bus came back while this attempt was failing (a publish sent into the outage): retry now.
          this.busReturned = false;
          failures = 0;
          continue;
        }
        await this.sleep(RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1]!);
        continue;
      }
      if (!this.pending && this.running) await this.sleep(this.pollIntervalMs);
    }
  }

  /**
   * The envelope comes as the text Postgres keeps (`envelope::text`) and goes to the bus as is: no JSON.parse by the
   * driver and no JSON.stringify before the publish, which were most of the relay's own CPU per event (ADR 0036).
   */
  private async unpublished(after: bigint): Promise<OutboxRow[]> {
    // Rows in flight past `after` (a read that started over while batches were out) are not read twice.
    const inFlight = [...this.sending].filter((batch) => batch.last > after).flatMap((batch) => batch.positions);
    // The text conversions run on the batch only (the inner query), not on every candidate row a plan may sort.
    const { rows } = await sql<OutboxRow>`
      SELECT o.position::text AS after_position, o.event_id, o.subject, o.envelope::text AS json, o.envelope->>'correlationId' AS correlation_id
      FROM (
        SELECT position, event_id, subject, envelope
        FROM outbox
        WHERE published_at IS NULL AND position > ${String(after)}::bigint
          ${inFlight.length > 0 ? sql`AND position <> ALL(${inFlight}::bigint[])` : sql``}
        ORDER BY position
        LIMIT ${this.batchSize}
      ) o
      ORDER BY o.position`.execute(this.opts.database.db);
    return rows;
  }

  private async publishRows(rows: OutboxRow[]): Promise<number> {
    const messages: OutgoingMessage<SerialisedEnvelope>[] = rows.map((row) => ({
      subject: row.subject,
      envelope: { json: row.json, correlationId: row.correlation_id },
      msgId: row.event_id,
    }));
    // One parameter for the whole batch (an array), not one per row.
    const batch = { positions: rows.map((r) => r.after_position), last: BigInt(rows[rows.length - 1]!.after_position) };
    this.sending.add(batch);
    try {
      await this.opts.bus.publish(messages);
      await sql`UPDATE outbox SET published_at = now() WHERE position = ANY(${batch.positions}::bigint[])`.execute(this.opts.database.db);
    } finally {
      this.sending.delete(batch);
    }
    this.published += rows.length;
    return rows.length;
  }

  private async cleanup(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 60_000) return;
    this.lastCleanup = now;
    await kitView(this.opts.database.db)
      .deleteFrom('outbox')
      .where('published_at', '<', new Date(now - this.retainPublishedMs))
      .execute();
  }
}
