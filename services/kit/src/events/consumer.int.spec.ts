import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { EventEnvelope } from '@ques/contracts';
import { NatsEventBus } from '../bus/nats-bus.js';
import { deleteNamespaceStreams, natsTestUrl, uniqueNamespace } from '../testing/nats.js';
import { eventually, infraGate, postgresServerUrl } from '../testing/infra.js';
import type { Kysely } from 'kysely';
import { counterFixture, silentLog, type CounterDB, type KitFixture } from '../test/fixture.js';
import { applyOnce, startConsumer } from './consumer.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

const envelope = <T>(data: T, type = 'Incremented'): EventEnvelope<T> => ({
  id: randomUUID(),
  type,
  version: 1,
  streamId: `counter-${randomUUID()}`,
  streamVersion: 1,
  occurredAt: new Date().toISOString(),
  correlationId: 'c',
  causationId: null,
  data,
});

describe.runIf(run)('idempotent consumers on real Postgres and NATS JetStream', () => {
  let fx: KitFixture;
  let bus: NatsEventBus;
  const namespace = uniqueNamespace('consumer');

  beforeAll(async () => {
    fx = await counterFixture();
    bus = await NatsEventBus.connect({ servers: natsUrl!, name: 'consumer-test', namespace, log: silentLog });
    await bus.ensureStreams(['support']);
  });
  afterAll(async () => {
    await bus?.close();
    await deleteNamespaceStreams(natsUrl!, namespace);
    await fx?.close();
  });

  const sumOfSeen = async () => {
    const rows = await fx.database.db.selectFrom('seen').select('value').execute();
    return rows.reduce((s, r) => s + Number(r.value), 0);
  };

  it('applies an event fed twice only once', async () => {
    const e = envelope({ by: 7 });
    const effect = async (trx: Kysely<CounterDB>, env: EventEnvelope<{ by: number }>) => {
      await trx.insertInto('seen').values({ event_id: `${env.id}:direct`, value: env.data.by }).execute();
    };
    expect(await applyOnce(fx.database, 'test--direct', e, effect)).toBe(true);
    expect(await applyOnce(fx.database, 'test--direct', e, effect)).toBe(false);
    const rows = await fx.database.db.selectFrom('seen').selectAll().where('event_id', '=', `${e.id}:direct`).execute();
    expect(rows).toHaveLength(1);
  });

  it('parks a poison message in the dead-letter table while the others keep flowing, and dedupes redeliveries', async () => {
    const before = await sumOfSeen();
    await startConsumer(bus, fx.database, silentLog, {
      durable: 'test--counting',
      context: 'support',
      maxDeliver: 3,
      backoffMs: [20, 20],
      handlers: {
        Incremented: {
          schema: z.object({ by: z.number().int().positive() }),
          effect: async (trx, env) => {
            await trx.insertInto('seen').values({ event_id: env.id, value: env.data.by }).execute();
          },
        },
      },
    });
    const good = [envelope({ by: 1 }), envelope({ by: 2 }), envelope({ by: 3 })];
    const poison = envelope({ by: 'lots' });
    const publish = (e: EventEnvelope, msgId = e.id) => bus.publish([{ subject: 'ques.support.Incremented', envelope: e, msgId }]);
    await publish(good[0]!);
    await publish(poison);
    await publish(good[1]!);
    // The same event again under another transport id (a replay): the consumer must still apply it once.
    await publish(good[1]!, `${good[1]!.id}:again`);
    await publish(good[2]!);

    await eventually(async () => (await sumOfSeen()) - before === 6);
    const dead = await eventually(async () => {
      const rows = await fx.database.db.selectFrom('dead_letters').selectAll().where('event_id', '=', poison.id).execute();
      return rows.length > 0 ? rows : null;
    });
    expect(dead).toHaveLength(1);
    expect(dead[0]!.consumer).toBe('test--counting');
    expect(dead[0]!.payload).toContain('lots');
    await new Promise((r) => setTimeout(r, 300));
    expect((await sumOfSeen()) - before).toBe(6);
  });
});
