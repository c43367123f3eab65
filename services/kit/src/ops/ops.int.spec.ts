import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { EventEnvelope } from '@ques/contracts';
import type { ConsumerDefinition } from '../events/consumer.js';
import { recordDeadLetter } from '../events/consumer.js';
import { infraGate, postgresServerUrl } from '../testing/infra.js';
import { capturingLog } from '../testing/logs.js';
import { runServiceCli } from '../cli.js';
import {
  counterFixture,
  counterService,
  counterMigrations,
  counterIntegration,
  counterProjection,
  metadata,
  type CounterDB,
  type KitFixture,
} from '../test/fixture.js';
import {
  dropDeadLetter,
  dryRunRebuild,
  listDeadLetters,
  retryAllDeadLetters,
  retryDeadLetter,
  serviceStatus,
} from './ops.js';

const run = infraGate(!!(await postgresServerUrl()), 'Postgres');

const envelope = (by: number): EventEnvelope<{ by: number }> => ({
  id: randomUUID(),
  type: 'Incremented',
  version: 1,
  streamId: `counter-${randomUUID()}`,
  streamVersion: 1,
  occurredAt: new Date().toISOString(),
  correlationId: 'c',
  causationId: null,
  data: { by },
});

describe.runIf(run)('operator tools', () => {
  let fx: KitFixture;
  const { log, lines } = capturingLog();
  const who = { operator: 'alice', log };
  // A consumer whose effect counts how often it ran, per event.
  const seen: ConsumerDefinition<CounterDB> = {
    durable: 'support--seen',
    context: 'support',
    handlers: {
      Incremented: {
        schema: z.object({ by: z.number() }),
        effect: async (trx, env) => {
          await sql`INSERT INTO seen (event_id, value) VALUES (${env.id}, 1)
            ON CONFLICT (event_id) DO UPDATE SET value = seen.value + 1`.execute(trx);
        },
      },
    },
  };
  const park = async (env: EventEnvelope) => {
    await recordDeadLetter(fx.database, {
      consumer: seen.durable,
      subject: 'ques.support.Incremented',
      payload: JSON.stringify(env),
      eventId: env.id,
      error: 'boom',
      attempts: 5,
    });
    return (await listDeadLetters(fx.database.db)).find((d) => d.eventId === env.id)!.id;
  };
  const timesApplied = async (eventId: string) =>
    (
      await fx.database.db
        .selectFrom('seen')
        .select('value')
        .where('event_id', '=', eventId)
        .executeTakeFirst()
    )?.value ?? 0;

  beforeAll(async () => {
    fx = await counterFixture();
  });
  afterAll(async () => fx?.close());

  it('dead-letters retry re-applies a parked event exactly once, and records who did it', async () => {
    const env = envelope(2);
    const id = await park(env);
    expect(await retryDeadLetter(fx.database, [seen], id, who)).toEqual({
      id,
      outcome: 'applied',
      consumer: seen.durable,
      eventId: env.id,
    });
    expect(await timesApplied(env.id)).toBe(1);
    // Again, and twice at once: nothing left to retry, the effect stays applied once.
    const again = await Promise.all([
      retryDeadLetter(fx.database, [seen], id, who),
      retryDeadLetter(fx.database, [seen], id, who),
    ]);
    expect(again.map((o) => o.outcome)).toEqual(['not found', 'not found']);
    expect(await timesApplied(env.id)).toBe(1);
    expect(await listDeadLetters(fx.database.db)).toEqual([]);
    const { rows } = await sql<{ operator: string; command: string; detail: { outcome: string } }>`
      SELECT operator, command, detail FROM operator_log ORDER BY id`.execute(fx.database.db);
    expect(rows[0]).toMatchObject({
      operator: 'alice',
      command: 'dead-letters retry',
      detail: { outcome: 'applied', eventId: env.id },
    });
    expect(lines.some((l) => l.msg === 'operator: dead-letters retry' && l.operator === 'alice')).toBe(true);
  });

  it('does not apply an event twice when the consumer processed it meanwhile, and keeps a letter whose handler fails again', async () => {
    const env = envelope(1);
    await sql`INSERT INTO processed_events (consumer, event_id) VALUES (${seen.durable}, ${env.id})`.execute(
      fx.database.db,
    );
    const id = await park(env);
    expect((await retryDeadLetter(fx.database, [seen], id, who)).outcome).toBe('already applied');
    expect(await timesApplied(env.id)).toBe(0);

    const failing: ConsumerDefinition<CounterDB> = {
      ...seen,
      handlers: {
        Incremented: {
          schema: z.object({ by: z.number() }),
          effect: () => Promise.reject(new Error('still broken')),
        },
      },
    };
    const bad = envelope(3);
    const badId = await park(bad);
    expect(await retryDeadLetter(fx.database, [failing], badId, who)).toEqual({
      id: badId,
      outcome: 'failed',
      error: 'still broken',
    });
    expect((await listDeadLetters(fx.database.db)).map((d) => d.id)).toEqual([badId]);
    expect(await retryAllDeadLetters(fx.database, [seen], who)).toEqual([
      { id: badId, outcome: 'applied', consumer: seen.durable, eventId: bad.id },
    ]);
    expect(await timesApplied(bad.id)).toBe(1);
  });

  it('drops a dead letter, keeping its payload in the operator log', async () => {
    const env = envelope(4);
    const id = await park(env);
    expect(await dropDeadLetter(fx.database, id, who)).toBe(true);
    expect(await dropDeadLetter(fx.database, id, who)).toBe(false);
    expect(await timesApplied(env.id)).toBe(0);
    const { rows } = await sql<{ detail: { payload?: string } }>`
      SELECT detail FROM operator_log WHERE command = 'dead-letters drop' ORDER BY id`.execute(
      fx.database.db,
    );
    expect(JSON.parse(rows[0]!.detail.payload!)).toMatchObject({ id: env.id });
  });

  it('rebuild --dry-run compares counts and checksums without touching the live read model', async () => {
    await fx.store.append({
      streamId: 'counter-a',
      expectedVersion: 0,
      events: [{ type: 'Incremented', data: { by: 1 } }],
      metadata,
    });
    await fx.store.append({
      streamId: 'counter-b',
      expectedVersion: 0,
      events: [{ type: 'Incremented', data: { by: 2 } }],
      metadata,
    });
    await fx.store.append({
      streamId: 'counter-a',
      expectedVersion: 1,
      events: [{ type: 'Incremented', data: { by: 3 } }],
      metadata,
    });
    const storeOptions = {
      context: 'support' as const,
      projections: [counterProjection],
      toIntegration: counterIntegration,
    };
    const dry = () =>
      dryRunRebuild({
        connectionString: fx.testDb.url,
        database: fx.database,
        store: storeOptions,
        migrations: counterMigrations,
        log,
        who,
      });
    const same = await dry();
    expect(same.same).toBe(true);
    expect(same.events).toBe(3);
    expect(same.tables.counters!.live.rows).toBe(2);

    // The live read model drifted: the dry run says so and leaves it as it is.
    await sql`UPDATE counters SET total = 99 WHERE id = 'a'`.execute(fx.database.db);
    const drifted = await dry();
    expect(drifted.same).toBe(false);
    expect(drifted.tables.counters!.live.checksum).not.toBe(drifted.tables.counters!.rebuilt.checksum);
    expect(
      (await fx.database.db.selectFrom('counters').select('total').where('id', '=', 'a').executeTakeFirst())
        ?.total,
    ).toBe(99);
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name LIKE 'support_dryrun_%'`.execute(
      fx.database.db,
    );
    expect(rows[0]!.n).toBe(0);

    const status = await serviceStatus({ service: 'support', db: fx.database.db });
    expect(status.outbox.backlog).toBe(3);
    expect(status.deadLetters).toEqual({});
    expect(status.streams).toEqual({ support: null });
  });

  it('the admin CLI: dead-letters retry ID applies a parked event once through the service’s own consumer, and says who did it', async () => {
    const userId = randomUUID();
    const sessionIds = [randomUUID(), randomUUID()].sort();
    const revoked: EventEnvelope = {
      ...envelope(0),
      type: 'SessionsRevoked',
      streamId: 'user-u1',
      data: { userId, sessionIds, reason: 'logout', revokedAt: new Date().toISOString() },
    };
    await recordDeadLetter(fx.database, {
      consumer: 'support--revocations',
      subject: 'ques.identity.SessionsRevoked',
      payload: JSON.stringify(revoked),
      eventId: revoked.id,
      error: 'boom',
      attempts: 5,
    });
    const id = (await listDeadLetters(fx.database.db)).find((d) => d.eventId === revoked.id)!.id;
    const out = vi.spyOn(console, 'log').mockImplementation(() => {});
    const env = { DATABASE_URL: fx.testDb.url, LOG_LEVEL: 'silent' };
    try {
      expect(await runServiceCli(counterService, ['dead-letters', 'retry', String(id), '--operator', 'bob'], env)).toBe(0);
      expect(await runServiceCli(counterService, ['dead-letters', 'retry', String(id), '--operator', 'bob'], env)).toBe(1);
      expect(await runServiceCli(counterService, ['status'], env)).toBe(0);
      const status = JSON.parse(String(out.mock.calls.at(-1)![0])) as { service: string; deadLetters: Record<string, number> };
      expect(status.service).toBe('support');
    } finally {
      out.mockRestore();
    }
    const sessions = await sql<{ session_id: string }>`SELECT session_id FROM revoked_sessions WHERE user_id = ${userId} ORDER BY session_id`.execute(fx.database.db);
    expect(sessions.rows.map((r) => r.session_id)).toEqual(sessionIds);
    const { rows } = await sql<{ operator: string; detail: { outcome: string } }>`
      SELECT operator, detail FROM operator_log WHERE command = 'dead-letters retry' AND operator = 'bob' ORDER BY id`.execute(fx.database.db);
    expect(rows.map((r) => r.detail.outcome)).toEqual(['applied', 'not found']);
  });
});
