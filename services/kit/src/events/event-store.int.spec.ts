import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConcurrencyError } from '../errors.js';
import { infraGate, postgresServerUrl } from '../testing/infra.js';
import { counterFixture, metadata, totalOf, type KitFixture } from '../test/fixture.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

describe.runIf(run)('event store on real Postgres', () => {
  let fx: KitFixture;
  beforeAll(async () => {
    fx = await counterFixture();
  });
  afterAll(async () => fx?.close());

  it('lets exactly one of many concurrent appends at the same expected version win; the rest get a conflict', async () => {
    const streamId = `counter-${randomUUID()}`;
    await fx.store.append({ streamId, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        fx.store.append({ streamId, expectedVersion: 1, events: [{ type: 'Incremented', data: { by: 10 } }], metadata }),
      ),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled');
    const lost = attempts.filter((a) => a.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(7);
    for (const l of lost) expect((l).reason).toBeInstanceOf(ConcurrencyError);
    const versions = (await fx.store.readStream(streamId)).map((e) => e.streamVersion);
    expect(versions).toEqual([1, 2]);
    expect(await totalOf(fx.database.db, streamId.slice(8))).toBe(11);
  });

  it('refuses an expected version ahead of the stream (no gaps in versions)', async () => {
    const streamId = `counter-${randomUUID()}`;
    await fx.store.append({ streamId, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata });
    await expect(
      fx.store.append({ streamId, expectedVersion: 5, events: [{ type: 'Incremented', data: { by: 1 } }], metadata }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(
      fx.store.append({ streamId, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 1 } }], metadata }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
  });

  it('updates inline projections and the outbox in the append transaction, or not at all', async () => {
    const streamId = `counter-${randomUUID()}`;
    const [event] = await fx.store.append({ streamId, expectedVersion: 0, events: [{ type: 'Incremented', data: { by: 3 } }], metadata });
    expect(await totalOf(fx.database.db, streamId.slice(8))).toBe(3);
    const outbox = await fx.database.db.selectFrom('outbox').selectAll().where('event_id', '=', event!.eventId).executeTakeFirst();
    expect(outbox?.subject).toBe('ques.support.Incremented');
    expect(outbox?.envelope).toMatchObject({ id: event!.eventId, type: 'Incremented', streamId, streamVersion: 1, correlationId: 'test-correlation', data: { by: 3 } });

    // The projection refuses this event: the append must leave no event, no outbox row and no read-model change.
    await expect(
      fx.store.append({ streamId, expectedVersion: 1, events: [{ type: 'Incremented', data: { by: -1 } }], metadata }),
    ).rejects.toThrow(/refused by the projection/);
    expect(await fx.store.readStream(streamId)).toHaveLength(1);
    expect(await totalOf(fx.database.db, streamId.slice(8))).toBe(3);
    const outboxForStream = await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE envelope->>'streamId' = ${streamId}`.execute(fx.database.db);
    expect(outboxForStream.rows[0]!.n).toBe(1);
    expect(await fx.database.db.selectFrom('events').select('event_id').where('stream_id', '=', streamId).execute()).toHaveLength(1);
  });

  it('returns the events as recorded, though only their positions come back from the insert (ADR 0049)', async () => {
    const streamId = `counter-${randomUUID()}`;
    const appended = await fx.store.append({
      streamId,
      expectedVersion: 0,
      events: [
        { type: 'Incremented', data: { by: 2 } },
        { type: 'Incremented', data: { by: 5 } },
      ],
      metadata,
    });
    const read = await fx.store.readStream(streamId);
    expect(appended).toEqual(read);
    expect(appended.map((e) => e.globalPosition)).toEqual(read.map((e) => e.globalPosition));
    expect(appended[0]!.globalPosition).toBeGreaterThan(0);
    expect(appended[1]!.globalPosition).toBeGreaterThan(appended[0]!.globalPosition);
    // The outbox's envelope carries the same time as the stored event.
    const outbox = await fx.database.db.selectFrom('outbox').select('envelope').where('event_id', '=', appended[1]!.eventId).executeTakeFirstOrThrow();
    expect((outbox.envelope as { occurredAt: string }).occurredAt).toBe(read[1]!.recordedAt.toISOString());
  });

  it('reads all events in global order', async () => {
    const all = await fx.store.readAll(0, 10_000);
    const positions = all.map((e) => e.globalPosition);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(all.length).toBeGreaterThan(0);
  });
});
