import { sql, type Kysely, type OperationNodeSource } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { isConnectionLoss } from '../db/connection-errors.js';
import { commitOrigin, fromOtherProcess, onCommitWake, wakeAtCommit } from '../db/commit-wakes.js';
import { kitView, type Executor, type KitTables } from '../db/schema.js';
import { systemClock, type Clock } from '../events/types.js';

export interface ScheduledJob<P = unknown> {
  id: number;
  kind: string;
  key: string;
  dueAt: Date;
  payload: P;
  attempts: number;
}

/** Runs inside the transaction that marks the job done: its writes and the completion commit together. */
export type JobHandler<DB = KitTables> = (trx: Kysely<DB>, job: ScheduledJob<any>) => Promise<void>;

export interface SchedulerOptions<DB extends KitTables = KitTables> {
  database: Database<DB>;
  log: Logger;
  handlers: Record<string, JobHandler<DB>>;
  clock?: Clock;
  pollIntervalMs?: number;
  /** Delay before retrying a failed job (grows with attempts). */
  retryDelayMs?: number;
  /**
   * Delay before retrying a job whose database connection was lost mid-run (`isConnectionLoss`). Such a run is not
   * an attempt: it counts toward neither `maxAttempts` nor the backoff, as a redelivery after a lost connection does
   * not on the bus. Default 1 s.
   */
  connectionLossRetryMs?: number;
  maxAttempts?: number;
  /** How long `stop()` waits for the job in hand before it returns anyway. Default 5 s. */
  stopTimeoutMs?: number;
}

// How long a shutdown waits for the job in hand. One still running after that is left to its transaction: it commits,
// or it rolls back with its connection and the job is claimed again later.
const STOP_TIMEOUT_MS = 5_000;

/** The NOTIFY channel a schema's schedulers listen on for new due jobs. */
export const jobsChannel = (schema: string) => `jobs_${schema}`;

/**
 * A job due sooner than this wakes the schedulers when its transaction commits (NOTIFY; on the embedded PGlite the
 * same in process). Later ones are found by the timer set from the next due time.
 */
const WAKE_HORIZON_MS = 60_000;
const CONNECTION_LOSS_RETRY_MS = 1_000;

/** A job to schedule: `key` identifies it (scheduling the same key again replaces it). */
export interface JobToSchedule {
  kind: string;
  key: string;
  dueAt: Date;
  payload: unknown;
}

/**
 * Schedules (or reschedules) the job identified by `key`, inside the caller's transaction. One statement: a job due
 * soon carries the schedulers' wake-up in the same statement as its row (ADR 0042), delivered at commit, so the
 * scheduler claims the job as soon as it can see it (ADR 0026). This process's schedulers are woken by the commit
 * itself, not by the NOTIFY coming back through Postgres (ADR 0046).
 */
export function scheduleJob<DB extends KitTables>(trx: Executor<DB>, job: JobToSchedule): Promise<void> {
  return scheduleJobs(trx, [job]);
}

/**
 * Schedules several jobs (and, when given, one more write of the caller's, `alongside`: an insert or update without
 * RETURNING) in one statement, inside the caller's transaction (ADR 0049): a new question's mails and its status link
 * are one round trip instead of three. The same rules as `scheduleJob` for each job; when two share a key, the last
 * one is scheduled.
 */
export async function scheduleJobs<DB extends KitTables>(
  trx: Executor<DB>,
  jobs: JobToSchedule[],
  alongside?: OperationNodeSource,
): Promise<void> {
  const byKey = new Map<string, JobToSchedule>();
  for (const job of jobs) byKey.set(job.key, job);
  const db = kitView(trx);
  if (byKey.size === 0) {
    if (alongside) await sql`${alongside}`.execute(db);
    return;
  }
  const rows = [...byKey.values()].map((job) => ({
    kind: job.kind,
    key: job.key,
    due_at: job.dueAt,
    payload: JSON.stringify(job.payload),
    status: 'pending' as const,
  }));
  const insert = db
    .insertInto('scheduled_jobs')
    .values(rows)
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        kind: eb.ref('excluded.kind'),
        due_at: eb.ref('excluded.due_at'),
        payload: eb.ref('excluded.payload'),
        status: 'pending',
        attempts: 0,
        last_error: null,
        done_at: null,
      })),
    );
  const now = Date.now();
  const soon = rows.some((row) => row.due_at.getTime() - now < WAKE_HORIZON_MS);
  if (!soon && !alongside) {
    await insert.execute();
    return;
  }
  const also = alongside ? sql`, alongside AS (${alongside})` : sql``;
  const woken = soon ? sql`pg_notify('jobs_' || current_schema(), ${commitOrigin})` : sql`NULL`;
  const { rows: result } = await sql<{ schema: string }>`WITH job AS (${insert.returning('id')})${also}
    SELECT ${woken} AS woken, current_schema() AS schema FROM (SELECT 1 FROM job LIMIT 1) AS one`.execute(db);
  const schema = result[0]?.schema;
  if (soon && schema) await wakeAtCommit(trx as Kysely<any>, jobsChannel(schema));
}

/** Cancels a pending job, inside the caller's transaction. Returns whether one was pending. */
export async function cancelJob<DB extends KitTables>(trx: Executor<DB>, key: string): Promise<boolean> {
  const result = await kitView(trx)
    .updateTable('scheduled_jobs')
    .set({ status: 'cancelled', done_at: sql<Date>`now()` })
    .where('key', '=', key)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

interface JobRow {
  id: number;
  kind: string;
  key: string;
  due_at: Date;
  payload: unknown;
  attempts: number;
}

/**
 * Durable deadlines. Each due job is claimed with FOR UPDATE SKIP LOCKED inside its own transaction, handled and
 * marked done in that same transaction: several instances can poll at once and every job runs exactly once
 * (a crash mid-job rolls back and the job is picked up again).
 */
export class Scheduler<DB extends KitTables = KitTables> {
  private readonly clock: Clock;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  /** Woken while a run was in progress: run again right after it. */
  private again = false;
  /** The wake-up said a job is due now (a commit scheduled one): the next run claims without looking first. */
  private claimNext = false;
  private unlisten: (() => Promise<void>) | null = null;
  private offCommitWake: (() => void) | null = null;
  /** Not polling (before `start()`, after `stop()`). */
  private stopped = true;
  /** `stop()` was called: no further job is claimed, even mid-`runDue()`. */
  private stopping = false;
  /** When the next pending job is due, as the last `runDue()` saw it (sets the timer). */
  private nextDue: Date | null = null;

  constructor(private readonly opts: SchedulerOptions<DB>) {
    this.clock = opts.clock ?? systemClock;
  }

  /** Adds job handlers (the service's jobs are known only once its parts are built). */
  handle(handlers: Record<string, JobHandler<DB>>): void {
    Object.assign(this.opts.handlers, handlers);
  }

  /**
   * Starts polling, and listens for commits of new due jobs (`scheduleJob` NOTIFYs): a job due now runs within
   * milliseconds of its commit, not at the next poll. Between polls the timer is set to the next due job's time.
   */
  async start(): Promise<void> {
    this.stopped = false;
    this.stopping = false;
    const channel = jobsChannel(this.opts.database.schema);
    // A commit of this process wakes it as it returns; another process's commit by its NOTIFY (ADR 0046). Both say a
    // job is due now. A (re)connected listener (no payload) only says one may be.
    this.offCommitWake = onCommitWake(channel, () => this.wake(true));
    try {
      this.unlisten = await this.opts.database.listen(
        channel,
        fromOtherProcess(() => this.wake()),
      );
    } catch (err) {
      this.opts.log.warn({ err }, 'scheduler could not listen for new jobs; it polls');
    }
    this.tick();
  }

  /**
   * Runs due jobs now (or right after the run in progress). `jobDue`: the caller knows a job is due now (a commit that
   * scheduled one), so the run claims at once instead of looking first.
   */
  wake(jobDue = false): void {
    if (jobDue) this.claimNext = true;
    this.tick();
  }

  private tick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pollMs = this.opts.pollIntervalMs ?? 1000;
    const claimFirst = this.claimNext;
    this.claimNext = false;
    this.running = this.runDue({ claimFirst })
      .then(() => this.delayUntil(this.nextDue, pollMs))
      .catch((err) => {
        this.opts.log.warn({ err }, 'scheduler tick failed');
        return pollMs;
      })
      .then((delay) => {
        this.running = null;
        if (this.stopped) return;
        const now = this.again;
        this.again = false;
        this.timer = setTimeout(() => this.tick(), now ? 0 : delay);
      });
  }

  /** Until `next` (the next pending job's due time), at most the poll interval (a job already due is another instance's). */
  private delayUntil(next: Date | null, pollMs: number): number {
    if (!next) return pollMs;
    const wait = next.getTime() - this.clock().getTime();
    return wait <= 0 ? pollMs : Math.min(pollMs, wait + 1);
  }

  /** The next pending job's due time: a look outside any transaction, so an idle tick opens none. */
  private async look(): Promise<Date | null> {
    const row = await kitView(this.opts.database.db)
      .selectFrom('scheduled_jobs')
      .select((eb) => eb.fn.min('due_at').as('next'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row?.next ? new Date(row.next) : null;
  }

  /**
   * Claims no further job, lets the one in hand finish (waiting at most `stopTimeoutMs`) and resolves. Due jobs left
   * over stay pending for the next instance: a shutdown must not wait for a backlog of them.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.offCommitWake?.();
    this.offCommitWake = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.().catch(() => {});
    const running = this.running;
    if (!running) return;
    const timeoutMs = this.opts.stopTimeoutMs ?? STOP_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      running.then(() => true),
      new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!finished)
      this.opts.log.warn(
        { waitedMs: timeoutMs },
        'scheduler stopped while a job was still running; its transaction decides',
      );
  }

  /**
   * Runs every job due at the clock's now (until `stop()` is called), one at a time; returns how many completed. One
   * look first; then each claim also says when the next other pending job is due, so the loop goes on, or ends,
   * without another query (ADR 0042). It ends when a claim finds nothing it can lock: what is due then is another
   * instance's. `claimFirst` (a commit said a job is due now) skips the look.
   */
  async runDue(opts: { claimFirst?: boolean } = {}): Promise<number> {
    const isDue = (at: Date | null): at is Date => at !== null && at.getTime() <= this.clock().getTime();
    let done = 0;
    let next = opts.claimFirst ? this.clock() : await this.look();
    while (!this.stopping && isDue(next)) {
      const outcome = await this.runOne();
      next = outcome.next;
      if (outcome.status === 'none') break;
      if (outcome.status === 'done') done += 1;
    }
    this.nextDue = next;
    return done;
  }

  /** Claims and runs one due job; says when the next other pending job is due. */
  private async runOne(): Promise<{ status: 'none' | 'done' | 'failed'; next: Date | null }> {
    const { db } = this.opts.database;
    const now = this.clock();
    let claimed: JobRow | undefined;
    let next: Date | null = null;
    try {
      await db.transaction().execute(async (trx) => {
        // The oldest due job nobody holds, and the due time of the next other pending one, in one statement.
        const { rows } = await sql<JobRow & { id: number | null; next_due: Date | null }>`
          WITH claimed AS (
            SELECT id, kind, key, due_at, payload, attempts FROM scheduled_jobs
             WHERE status = 'pending' AND due_at <= ${now}
             ORDER BY due_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          SELECT c.*, n.next_due FROM
            (SELECT min(due_at) AS next_due FROM scheduled_jobs
              WHERE status = 'pending' AND id NOT IN (SELECT id FROM claimed)) n
            LEFT JOIN claimed c ON true`.execute(trx);
        const row = rows[0];
        next = row?.next_due ? new Date(row.next_due) : null;
        if (!row || row.id === null) return;
        claimed = row;
        const handler = this.opts.handlers[claimed.kind];
        if (!handler) throw new Error(`No handler for scheduled job kind ${claimed.kind}`);
        await handler(trx, {
          id: claimed.id,
          kind: claimed.kind,
          key: claimed.key,
          dueAt: new Date(claimed.due_at),
          payload: claimed.payload,
          attempts: claimed.attempts,
        });
        await kitView(trx)
          .updateTable('scheduled_jobs')
          .set({ status: 'done', done_at: now, attempts: claimed.attempts + 1 })
          .where('id', '=', claimed.id)
          .execute();
      });
    } catch (err) {
      if (!claimed) throw err;
      await this.recordFailure(claimed, err, now);
      return { status: 'failed', next };
    }
    return { status: claimed ? 'done' : 'none', next };
  }

  private async recordFailure(job: JobRow, err: unknown, now: Date): Promise<void> {
    // A lost connection is not the job's failure: it runs again shortly, attempts unchanged (the pool replaces the
    // connection). Any other error counts an attempt and backs off.
    const lostConnection = isConnectionLoss(err);
    const attempts = lostConnection ? job.attempts : job.attempts + 1;
    const delay = lostConnection
      ? (this.opts.connectionLossRetryMs ?? CONNECTION_LOSS_RETRY_MS)
      : (this.opts.retryDelayMs ?? 5000) * 2 ** Math.min(attempts - 1, 8);
    this.opts.log.warn(
      { err, jobKey: job.key, attempts },
      lostConnection ? 'scheduled job lost its database connection; it runs again' : 'scheduled job failed',
    );
    await kitView(this.opts.database.db)
      .updateTable('scheduled_jobs')
      .set({
        attempts,
        last_error: String((err as Error)?.message ?? err),
        status: attempts >= (this.opts.maxAttempts ?? 10) ? 'failed' : 'pending',
        due_at: new Date(now.getTime() + delay),
      })
      .where('id', '=', job.id)
      .execute();
  }
}
