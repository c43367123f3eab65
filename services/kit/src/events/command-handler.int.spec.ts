import { randomUUID } from 'node:crypto';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyError } from '../errors.js';
import { scheduleJob } from '../scheduler/scheduler.js';
import {
  counterDecider,
  counterFixture,
  counterStreamId,
  metadata,
  totalOf,
  type CounterDB,
  type KitFixture,
} from '../test/fixture.js';
import { infraGate, postgresServerUrl } from '../testing/infra.js';
import { statementsOf } from '../testing/statements.js';
import { CommandHandler } from './command-handler.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

describe.runIf(run)('the command handler on real Postgres', () => {
  let fx: KitFixture;
  beforeAll(async () => {
    fx = await counterFixture();
  });
  afterAll(async () => fx?.close());

  const jobsFor = async (key: string) =>
    fx.database.db.selectFrom('scheduled_jobs').select('kind').where('key', '=', key).execute();

  it('loads, decides and appends with the projection, the outbox row and the side effects in one transaction', async () => {
    const id = randomUUID();
    const order: string[] = [];
    const counters = new CommandHandler(fx.store, {
      decider: counterDecider,
      streamId: counterStreamId,
      lock: async (_trx, lockedId) => void order.push(`lock ${lockedId === id}`),
      sideEffects: async (trx, recorded, state) => {
        order.push(`side effects ${recorded.length} → ${state}`);
        await scheduleJob(trx, { kind: 'counter-check', key: `check-${id}`, dueAt: new Date(), payload: {} });
      },
    });
    const first = await counters.handle(id, { by: 2 }, metadata);
    expect(first).toMatchObject({ state: 2, version: 1 });
    expect(first.events.map((e) => e.type)).toEqual(['Incremented']);
    expect(await totalOf(fx.database.db, id)).toBe(2);
    expect(await jobsFor(`check-${id}`)).toHaveLength(1);
    const outbox = await fx.database.db
      .selectFrom('outbox')
      .select('event_id')
      .where('event_id', '=', first.events[0]!.eventId)
      .execute();
    expect(outbox).toHaveLength(1);
    expect(order).toEqual(['lock true', 'side effects 1 → 2']);

    // Nothing decided: no append, no side effects, same version.
    const none = await counters.handle(id, { by: 0 }, metadata);
    expect(none).toMatchObject({ state: 2, version: 1, events: [] });
    expect(order).toHaveLength(3); // only the lock ran
  });

  it('appends in as few round trips as it can: no second read of the version, the outbox rows and their NOTIFY in the events\' statement (ADR 0037, 0049)', async () => {
    const id = randomUUID();
    const counters = new CommandHandler(fx.store, { decider: counterDecider, streamId: counterStreamId });
    await counters.handle(id, { by: 1 }, metadata);
    const channel = `outbox_${fx.database.schema}`;
    let notified = 0;
    const unlisten = await fx.database.listen(channel, () => (notified += 1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    notified = 0;
    let statements = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      // Once per statement sent (a builder nested in another statement is transformed, but not sent, on its own).
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    };
    try {
      await fx.database.db
        .transaction()
        .execute((trx) => counters.handle(id, { by: 2 }, metadata, { transaction: trx.withPlugin(counting) }));
      // Load the stream, insert the event with its outbox row and their NOTIFYs (ADR 0049), the counter's projection.
      expect(statements).toBe(3);
      expect(await totalOf(fx.database.db, id)).toBe(3);
      for (let waited = 0; notified === 0 && waited < 2_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(notified).toBeGreaterThan(0);
    } finally {
      await unlisten();
    }
  });

  it('creates a new stream without the lock and the load, and an existing one fails as a lost race does (newStream, ADR 0049)', async () => {
    const locked: string[] = [];
    const counters = new CommandHandler(fx.store, {
      decider: counterDecider,
      streamId: counterStreamId,
      lock: async (_trx, lockedId) => void locked.push(lockedId),
    });
    const id = randomUUID();
    const created = await statementsOf(() => counters.handle(id, { by: 2 }, metadata, { newStream: true }));
    expect(created.result).toMatchObject({ state: 2, version: 1 });
    // BEGIN, the event with its outbox row, the counter's projection, COMMIT: no lock, no read of the stream.
    expect(created.statements).toHaveLength(4);
    expect(created.statements.some((s) => /^select .* from "events"/i.test(s))).toBe(false);
    expect(locked).toEqual([]);
    expect(await totalOf(fx.database.db, id)).toBe(2);

    // The stream exists (a retry of a request that committed): the append at version 0 fails, nothing is added.
    await expect(counters.handle(id, { by: 5 }, metadata, { newStream: true })).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await totalOf(fx.database.db, id)).toBe(2);
    expect((await fx.store.readStream(counterStreamId(id))).map((e) => e.streamVersion)).toEqual([1]);
    // With retries, the second attempt decides the ordinary way, locked and on the loaded stream.
    const retrying = new CommandHandler(fx.store, {
      decider: counterDecider,
      streamId: counterStreamId,
      lock: async (_trx, lockedId) => void locked.push(lockedId),
      retries: 1,
    });
    expect(await retrying.handle(id, { by: 5 }, metadata, { newStream: true })).toMatchObject({ state: 7, version: 2 });
    expect(locked).toEqual([id]);
    // Inside a caller's transaction the option is not taken (a failed append would abort the caller's work too).
    await fx.database.db.transaction().execute((trx) => retrying.handle(id, { by: 1 }, metadata, { transaction: trx, newStream: true }));
    expect(await totalOf(fx.database.db, id)).toBe(8);
  });

  it("rolls everything back when a side effect or the call's own writes fail", async () => {
    const id = randomUUID();
    const counters = new CommandHandler(fx.store, { decider: counterDecider, streamId: counterStreamId });
    await expect(
      counters.handle(id, { by: 1 }, metadata, {
        alongside: async (trx) => {
          await sql`INSERT INTO seen (event_id, value) VALUES (${id}, 1)`.execute(trx);
          throw new Error('mail queue unavailable');
        },
      }),
    ).rejects.toThrow('mail queue unavailable');
    expect(await fx.store.readStream(counterStreamId(id))).toEqual([]);
    expect(await totalOf(fx.database.db, id)).toBeNull();
    expect(await fx.database.db.selectFrom('seen').selectAll().where('event_id', '=', id).execute()).toEqual(
      [],
    );
  });

  it("runs inside a caller's transaction, committing or rolling back with it", async () => {
    const id = randomUUID();
    const counters = new CommandHandler(fx.store, { decider: counterDecider, streamId: counterStreamId });
    await expect(
      fx.database.db.transaction().execute(async (trx) => {
        await counters.handle(id, { by: 5 }, metadata, { transaction: trx });
        expect(await totalOf(trx, id)).toBe(5);
        throw new Error('the job failed after the command');
      }),
    ).rejects.toThrow();
    expect(await totalOf(fx.database.db, id)).toBeNull();
    await fx.database.db
      .transaction()
      .execute((trx) => counters.handle(id, { by: 5 }, metadata, { transaction: trx }));
    expect(await totalOf(fx.database.db, id)).toBe(5);
  });

  it('lets the loser of a race get a 409, or decide again on fresh state when retries are allowed', async () => {
    const strict = new CommandHandler(fx.store, { decider: counterDecider, streamId: counterStreamId });
    const retrying = new CommandHandler(fx.store, {
      decider: counterDecider,
      streamId: counterStreamId,
      retries: 10,
    });
    const a = randomUUID();
    const strictResults = await Promise.allSettled(
      Array.from({ length: 8 }, () => strict.handle(a, { by: 1 }, metadata)),
    );
    const rejected = strictResults.filter((r) => r.status === 'rejected');
    for (const r of rejected) expect(r.reason).toBeInstanceOf(ConcurrencyError);
    expect(await totalOf(fx.database.db, a)).toBe(8 - rejected.length);

    const b = randomUUID();
    await Promise.all(Array.from({ length: 8 }, () => retrying.handle(b, { by: 1 }, metadata)));
    expect(await totalOf(fx.database.db, b)).toBe(8);
    // A retry decides on the fresh state: the limit holds however the race goes.
    const c = randomUUID();
    const limited = await Promise.allSettled(
      Array.from({ length: 6 }, () => retrying.handle(c, { by: 1, limit: 3 }, metadata)),
    );
    expect(limited.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await totalOf(fx.database.db, c)).toBe(3);
  });

  it('serialises commands on one aggregate behind its lock', async () => {
    const id = randomUUID();
    await fx.database.db
      .insertInto('seen')
      .values({ event_id: `lock-${id}`, value: 0 })
      .execute();
    const counters = new CommandHandler<
      { by: number },
      { type: 'Incremented'; data: { by: number } },
      number,
      CounterDB
    >(fx.store, {
      decider: counterDecider,
      streamId: counterStreamId,
      lock: async (trx, lockedId) => {
        await trx
          .selectFrom('seen')
          .select('event_id')
          .where('event_id', '=', `lock-${lockedId}`)
          .forUpdate()
          .execute();
      },
    });
    await Promise.all(Array.from({ length: 10 }, () => counters.handle(id, { by: 1 }, metadata)));
    expect(await totalOf(fx.database.db, id)).toBe(10);
  });
});
