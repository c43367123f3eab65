import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, infraGate, postgresServerUrl } from '../testing/infra.js';
import { statementsOf } from '../testing/statements.js';
import { sql, type Kysely } from 'kysely';
import { counterFixture, silentLog, type CounterDB, type KitFixture } from '../test/fixture.js';
import { cancelJob, scheduleJob, scheduleJobs, Scheduler } from './scheduler.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

describe.runIf(run)('durable scheduler on real Postgres', () => {
  let fx: KitFixture;
  beforeAll(async () => {
    fx = await counterFixture();
  });
  afterAll(async () => fx?.close());

  it('runs each due job exactly once across two instances polling at once, and never a cancelled or future one', async () => {
    const t0 = new Date('2026-01-01T00:00:00Z');
    let now = t0;
    const clock = () => now;
    const ran: string[] = [];
    const handlers = {
      expire: async (trx: Kysely<CounterDB>, job: { key: string }) => {
        ran.push(job.key);
        // The job's effect commits with its completion.
        await trx.insertInto('seen').values({ event_id: job.key, value: 1 }).execute();
      },
    };
    await fx.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 40; i += 1)
        await scheduleJob(trx, {
          kind: 'expire',
          key: `job-${i}`,
          dueAt: new Date(t0.getTime() + 5 * 86400_000),
          payload: { i },
        });
      await scheduleJob(trx, {
        kind: 'expire',
        key: 'job-later',
        dueAt: new Date(t0.getTime() + 9 * 86400_000),
        payload: {},
      });
      await scheduleJob(trx, {
        kind: 'expire',
        key: 'job-cancelled',
        dueAt: new Date(t0.getTime() + 5 * 86400_000),
        payload: {},
      });
    });
    await fx.database.db
      .transaction()
      .execute(async (trx) => expect(await cancelJob(trx, 'job-cancelled')).toBe(true));

    const a = new Scheduler({ database: fx.database, log: silentLog, handlers, clock });
    const b = new Scheduler({ database: fx.database, log: silentLog, handlers, clock });
    expect(await Promise.all([a.runDue(), b.runDue()])).toEqual([0, 0]); // nothing due yet

    now = new Date(t0.getTime() + 5 * 86400_000 + 1);
    const [doneA, doneB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(doneA + doneB).toBe(40);
    expect(new Set(ran).size).toBe(40);
    expect(ran).toHaveLength(40);
    expect(ran).not.toContain('job-later');
    expect(ran).not.toContain('job-cancelled');
    const seen = await fx.database.db.selectFrom('seen').select('event_id').execute();
    expect(seen).toHaveLength(40);
  });

  it('retries a failing job later and keeps it pending meanwhile', async () => {
    let now = new Date('2026-02-01T00:00:00Z');
    let fail = true;
    const scheduler = new Scheduler({
      database: fx.database,
      log: silentLog,
      clock: () => now,
      retryDelayMs: 1000,
      handlers: {
        flaky: async () => {
          if (fail) throw new Error('mail server down');
        },
      },
    });
    await fx.database.db
      .transaction()
      .execute((trx) => scheduleJob(trx, { kind: 'flaky', key: 'flaky-1', dueAt: now, payload: {} }));
    expect(await scheduler.runDue()).toBe(0);
    const pending = await fx.database.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('key', '=', 'flaky-1')
      .executeTakeFirstOrThrow();
    expect(pending.status).toBe('pending');
    expect(pending.attempts).toBe(1);
    expect(pending.last_error).toBe('mail server down');
    fail = false;
    now = new Date(now.getTime() + 1500);
    expect(await scheduler.runDue()).toBe(1);
  });

  it('runs a job again shortly when its database connection is lost mid-run, without counting an attempt', async () => {
    let now = new Date('2026-02-02T00:00:00Z');
    let runs = 0;
    const scheduler = new Scheduler({
      database: fx.database,
      log: silentLog,
      clock: () => now,
      retryDelayMs: 60_000,
      maxAttempts: 1,
      handlers: {
        // The first run's backend is terminated under it, as pg_terminate_backend or a Postgres restart does.
        cut: async (trx) => {
          runs += 1;
          if (runs === 1) await sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(trx);
        },
      },
    });
    await fx.database.db
      .transaction()
      .execute((trx) => scheduleJob(trx, { kind: 'cut', key: 'cut-1', dueAt: now, payload: {} }));
    expect(await scheduler.runDue()).toBe(0);
    const pending = await fx.database.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('key', '=', 'cut-1')
      .executeTakeFirstOrThrow();
    expect(pending).toMatchObject({ status: 'pending', attempts: 0 });
    expect(pending.last_error).toMatch(/terminat/i);
    expect(new Date(pending.due_at).getTime()).toBe(now.getTime() + 1000);
    now = new Date(now.getTime() + 1000);
    expect(await scheduler.runDue()).toBe(1);
    expect(runs).toBe(2);
  });

  const jobStatuses = async (prefix: string) =>
    (
      await fx.database.db
        .selectFrom('scheduled_jobs')
        .select('status')
        .where('key', 'like', `${prefix}%`)
        .execute()
    )
      .map((r) => r.status)
      .sort();

  it('stops claiming jobs once stop() is called: the job in hand finishes, the rest of the backlog stays pending', async () => {
    const started: string[] = [];
    let firstStarted!: () => void;
    const first = new Promise<void>((resolve) => (firstStarted = resolve));
    const scheduler = new Scheduler({
      database: fx.database,
      log: silentLog,
      pollIntervalMs: 50,
      handlers: {
        // As a webhook job calling a slow provider: a backlog of these once held a shutdown for 20 s and more.
        slow: async (_trx, job) => {
          started.push(job.key);
          firstStarted();
          await new Promise((r) => setTimeout(r, 300));
        },
      },
    });
    const due = new Date(Date.now() - 1_000);
    await fx.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 20; i += 1)
        await scheduleJob(trx, { kind: 'slow', key: `backlog-${i}`, dueAt: due, payload: {} });
    });

    await scheduler.start();
    await first;
    await scheduler.stop();
    expect(started).toHaveLength(1);
    expect(await jobStatuses('backlog-')).toEqual(['done', ...Array<string>(19).fill('pending')]);
    await new Promise((r) => setTimeout(r, 200)); // nothing is claimed after stop() resolved
    expect(started).toHaveLength(1);
  });

  it('stop() returns after stopTimeoutMs when the job in hand hangs, and that job still completes on its own', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inHand = false;
    const scheduler = new Scheduler({
      database: fx.database,
      log: silentLog,
      stopTimeoutMs: 100,
      handlers: {
        hang: async () => {
          inHand = true;
          await gate;
        },
      },
    });
    await fx.database.db
      .transaction()
      .execute((trx) =>
        scheduleJob(trx, {
          kind: 'hang',
          key: 'hanging-1',
          dueAt: new Date(Date.now() - 1_000),
          payload: {},
        }),
      );

    await scheduler.start();
    await eventually(async () => inHand);
    await scheduler.stop();
    expect(await jobStatuses('hanging-')).toEqual(['pending']); // still in its transaction
    release();
    await eventually(async () => (await jobStatuses('hanging-'))[0] === 'done');
  });

  it('runs a job due now as soon as its transaction commits, not at the next poll (60 s here)', async () => {
    const ran: string[] = [];
    const scheduler = new Scheduler({
      database: fx.database,
      log: silentLog,
      pollIntervalMs: 60_000,
      handlers: { settle: async (_trx, job) => void ran.push(job.key) },
    });
    await scheduler.start();
    try {
      // The first poll has run (nothing due); the next would be a minute away. `eventually` gives up after 10 s.
      await fx.database.db
        .transaction()
        .execute((trx) =>
          scheduleJob(trx, { kind: 'settle', key: 'wake-now', dueAt: new Date(), payload: {} }),
        );
      // The handler runs inside the claiming transaction: wait for the job's completion to commit.
      await eventually(async () => (await jobStatuses('wake-now'))[0] === 'done');
      // A job due shortly (not yet due when its commit wakes the scheduler) runs when due: the timer follows the next due job.
      await fx.database.db
        .transaction()
        .execute((trx) =>
          scheduleJob(trx, {
            kind: 'settle',
            key: 'wake-soon',
            dueAt: new Date(Date.now() + 300),
            payload: {},
          }),
        );
      await eventually(async () => (await jobStatuses('wake-soon'))[0] === 'done');
      expect(ran).toEqual(['wake-now', 'wake-soon']);
    } finally {
      await scheduler.stop();
    }
  });
  it('schedules a job in one statement, its wake-up included when it is due soon (ADR 0042)', async () => {
    const soon = await statementsOf(() =>
      scheduleJob(fx.database.db, {
        kind: 'none',
        key: 'one-statement-soon',
        dueAt: new Date(Date.now() + 86400_000 * -1),
        payload: {},
      }),
    );
    const later = await statementsOf(() =>
      scheduleJob(fx.database.db, {
        kind: 'none',
        key: 'one-statement-later',
        dueAt: new Date(Date.now() + 86400_000),
        payload: {},
      }),
    );
    expect(soon.statements).toHaveLength(1);
    expect(soon.statements[0]).toMatch(/pg_notify/);
    expect(later.statements).toHaveLength(1);
    expect(later.statements[0]).not.toMatch(/pg_notify/);
    // Rescheduling keeps one row per key, and the statement's notify is delivered at commit to a listener.
    let woken = 0;
    const unlisten = await fx.database.listen('jobs_support', (payload) => {
      if (payload !== undefined) woken += 1;
    });
    try {
      await fx.database.db.transaction().execute(async (trx) => {
        await scheduleJob(trx, {
          kind: 'none',
          key: 'one-statement-soon',
          dueAt: new Date(Date.now() - 1000),
          payload: { again: true },
        });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(woken).toBe(0); // not before the commit
      });
      await eventually(async () => woken === 1);
    } finally {
      await unlisten();
    }
    expect(await jobStatuses('one-statement-soon')).toEqual(['pending']);
    for (const key of ['one-statement-soon', 'one-statement-later']) await cancelJob(fx.database.db, key);
  });

  it("schedules several jobs and the caller's own write in one statement, the wake-up at commit (ADR 0049)", async () => {
    const id = `several-${Date.now()}`;
    const soonDue = new Date(Date.now() - 1000);
    let woken = 0;
    const unlisten = await fx.database.listen('jobs_support', (payload) => {
      if (payload !== undefined) woken += 1;
    });
    try {
      const { statements } = await statementsOf(() =>
        fx.database.db.transaction().execute(async (trx) => {
          await scheduleJobs(
            trx,
            [
              { kind: 'none', key: `${id}-a`, dueAt: soonDue, payload: { n: 1 } },
              { kind: 'none', key: `${id}-b`, dueAt: new Date(Date.now() + 86400_000), payload: { n: 2 } },
              // The same key twice: the last is scheduled (one statement cannot update a row twice).
              { kind: 'none', key: `${id}-a`, dueAt: soonDue, payload: { n: 3 } },
            ],
            trx.insertInto('seen').values({ event_id: id, value: 7 }),
          );
          await new Promise((resolve) => setTimeout(resolve, 200));
          expect(woken).toBe(0); // not before the commit
        }),
      );
      expect(statements).toHaveLength(3); // BEGIN, the one statement, COMMIT
      expect(statements[1]).toMatch(/pg_notify/);
      await eventually(async () => woken === 1);
    } finally {
      await unlisten();
    }
    const rows = await fx.database.db
      .selectFrom('scheduled_jobs')
      .select(['key', 'payload', 'status'])
      .where('key', 'like', `${id}%`)
      .orderBy('key')
      .execute();
    expect(rows).toEqual([
      { key: `${id}-a`, payload: { n: 3 }, status: 'pending' },
      { key: `${id}-b`, payload: { n: 2 }, status: 'pending' },
    ]);
    expect(
      await fx.database.db.selectFrom('seen').select('value').where('event_id', '=', id).executeTakeFirst(),
    ).toEqual({ value: 7 });
    // Rescheduling through the same statement replaces each job (pending again, attempts reset); nothing due soon, no NOTIFY.
    await fx.database.db
      .updateTable('scheduled_jobs')
      .set({ status: 'done', attempts: 2 })
      .where('key', '=', `${id}-b`)
      .execute();
    const later = await statementsOf(() =>
      scheduleJobs(
        fx.database.db,
        [{ kind: 'other', key: `${id}-b`, dueAt: new Date(Date.now() + 86400_000), payload: { n: 4 } }],
        fx.database.db.insertInto('seen').values({ event_id: `${id}-2`, value: 8 }),
      ),
    );
    expect(later.statements).toHaveLength(1);
    expect(later.statements[0]).not.toMatch(/pg_notify/);
    expect(
      await fx.database.db
        .selectFrom('scheduled_jobs')
        .select(['kind', 'payload', 'status', 'attempts'])
        .where('key', '=', `${id}-b`)
        .executeTakeFirst(),
    ).toEqual({
      kind: 'other',
      payload: { n: 4 },
      status: 'pending',
      attempts: 0,
    });
    expect(
      await fx.database.db
        .selectFrom('seen')
        .select('value')
        .where('event_id', '=', `${id}-2`)
        .executeTakeFirst(),
    ).toEqual({ value: 8 });
    for (const key of [`${id}-a`, `${id}-b`]) await cancelJob(fx.database.db, key);
  });

  it('runs what is due with one look and one claim per job: the claim says whether more are due (ADR 0042)', async () => {
    // A clock before every other job of this file, so only these are due.
    const now = new Date('2025-06-01T00:00:00Z');
    const ran: string[] = [];
    const scheduler = new Scheduler({
      database: fx.database,
      log: silentLog,
      clock: () => now,
      handlers: { count: async (_trx, job) => void ran.push(job.key) },
    });
    await fx.database.db.transaction().execute(async (trx) => {
      for (const i of [1, 2, 3])
        await scheduleJob(trx, {
          kind: 'count',
          key: `more-${i}`,
          dueAt: new Date(now.getTime() - 4000 + i),
          payload: {},
        });
      await scheduleJob(trx, {
        kind: 'count',
        key: 'more-later',
        dueAt: new Date(now.getTime() + 86400_000),
        payload: {},
      });
    });
    const busy = await statementsOf(() => scheduler.runDue());
    expect(busy.result).toBe(3);
    expect(ran).toEqual(['more-1', 'more-2', 'more-3']);
    // The look, then per job: BEGIN, the claim, its completion, COMMIT — no empty claim after the last one.
    expect(busy.statements).toHaveLength(1 + 3 * 4);
    // Nothing due: the look alone, no transaction.
    const idle = await statementsOf(() => scheduler.runDue());
    expect([idle.result, idle.statements.length]).toEqual([0, 1]);
    expect(await jobStatuses('more-')).toEqual(['done', 'done', 'done', 'pending']);

    // A due job another instance holds: this one claims nothing and stops, it does not spin on it.
    await scheduleJob(fx.database.db, {
      kind: 'count',
      key: 'more-held',
      dueAt: new Date(now.getTime() - 1000),
      payload: {},
    });
    await fx.database.db.transaction().execute(async (trx) => {
      await trx
        .selectFrom('scheduled_jobs' as never)
        .selectAll()
        .where('key' as never, '=', 'more-held' as never)
        .forUpdate()
        .execute();
      const held = await statementsOf(() => scheduler.runDue());
      expect([held.result, held.statements.length]).toEqual([0, 1 + 3]); // the look, BEGIN, the empty claim, COMMIT
    });
    for (const key of ['more-later', 'more-held']) await cancelJob(fx.database.db, key);

    // Woken by a commit that scheduled a job due now: no look, straight to the claim (ADR 0046).
    await scheduleJob(fx.database.db, {
      kind: 'count',
      key: 'more-woken',
      dueAt: new Date(now.getTime() - 500),
      payload: {},
    });
    const woken = await statementsOf(() => scheduler.runDue({ claimFirst: true }));
    expect(woken.result).toBe(1);
    expect(woken.statements).toHaveLength(4); // BEGIN, the claim, its completion, COMMIT
  });

  it("wakes this process's scheduler at the commit itself, without the NOTIFY (a listener that never hears, a 60 s poll)", async () => {
    const ran: string[] = [];
    // The same schema through a handle whose LISTEN hears nothing: only the commit can wake the scheduler in time.
    const deaf = { ...fx.database, listen: async () => async () => {} };
    // Jobs left pending by the tests above would keep it busy (and so awake): none is.
    await fx.database.db
      .updateTable('scheduled_jobs')
      .set({ status: 'cancelled' })
      .where('status', '=', 'pending')
      .execute();
    const scheduler = new Scheduler({
      database: deaf,
      log: silentLog,
      pollIntervalMs: 60_000,
      handlers: { deafJob: async (_trx, job) => void ran.push(job.key) },
    });
    await scheduler.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the first poll has run; the next is a minute away
      await fx.database.db
        .transaction()
        .execute((trx) =>
          scheduleJob(trx, { kind: 'deafJob', key: 'deaf-1', dueAt: new Date(), payload: {} }),
        );
      await eventually(async () => (await jobStatuses('deaf-'))[0] === 'done', 10_000);
      expect(ran).toEqual(['deaf-1']);
      // A rolled-back schedule wakes nobody and leaves nothing.
      await fx.database.db
        .transaction()
        .execute(async (trx) => {
          await scheduleJob(trx, { kind: 'deafJob', key: 'deaf-2', dueAt: new Date(), payload: {} });
          throw new Error('roll back');
        })
        .catch(() => {});
      expect(await jobStatuses('deaf-2')).toEqual([]);
    } finally {
      await scheduler.stop();
    }
  });

  it("leaves the scheduler's work out of the committing caller's statements: the wake runs in the scheduler's own context", async () => {
    await fx.database.db
      .updateTable('scheduled_jobs')
      .set({ status: 'cancelled' })
      .where('status', '=', 'pending')
      .execute();
    const scheduler = new Scheduler({
      database: fx.database,
      log: silentLog,
      pollIntervalMs: 60_000,
      handlers: { own: async () => {} },
    });
    await scheduler.start();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const scheduled = await statementsOf(() =>
        fx.database.db
          .transaction()
          .execute((trx) => scheduleJob(trx, { kind: 'own', key: 'own-1', dueAt: new Date(), payload: {} })),
      );
      await eventually(async () => (await jobStatuses('own-'))[0] === 'done');
      expect(scheduled.statements).toHaveLength(3); // BEGIN, the job with its NOTIFY, COMMIT: not the claim that followed
    } finally {
      await scheduler.stop();
    }
  });
});
