import { randomUUID } from 'node:crypto';
import { connect } from 'nats';
import pino from 'pino';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamName } from '../bus/naming.js';
import { NatsEventBus } from '../bus/nats-bus.js';
import { counterFixture, metadata, type KitFixture, type CounterDB } from '../test/fixture.js';
import { eventually, infraGate, postgresServerUrl } from '../testing/infra.js';
import { natsServerBinary, startNatsServer, type NatsTestServer } from '../testing/nats.js';
import { OutboxRelay } from './outbox-relay.js';

const run =
  infraGate(!!(await postgresServerUrl()), 'Postgres') &&
  infraGate(!!natsServerBinary(), 'The nats-server binary (NATS_SERVER_BIN, PATH or /usr/sbin/nats-server)');

/** A logger that also tells the test how many publish attempts in a row the relay has seen fail. */
function watchedLog() {
  const seen = { failures: 0 };
  const log = pino(
    { level: 'warn' },
    {
      write(line: string) {
        const entry = JSON.parse(line) as { msg?: string; failures?: number };
        if (entry.msg === 'outbox relay could not publish; will retry') seen.failures = entry.failures ?? 0;
      },
    },
  );
  return { log, seen };
}

describe.runIf(run)('outbox relay recovering from a NATS outage (private nats-server)', () => {
  let server: NatsTestServer;
  let bus: NatsEventBus;
  let fx: KitFixture;
  let relay: OutboxRelay<CounterDB>;
  const watched = watchedLog();

  beforeAll(async () => {
    server = await startNatsServer();
    bus = await NatsEventBus.connect({ servers: server.url, name: 'relay-recovery-test', log: watched.log });
    await bus.ensureStreams(['support']);
    fx = await counterFixture();
    // Production settings: NOTIFY-woken, 1 s fallback poll.
    relay = new OutboxRelay({ database: fx.database, bus, log: watched.log });
    await relay.start();
  });
  afterAll(async () => {
    await relay?.stop();
    await bus?.close();
    await server?.dispose();
    await fx?.close();
  });

  const unpublished = async () =>
    Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`.execute(fx.database.db)).rows[0]!.n);
  const append = (streams: number, perStream: number) =>
    Promise.all(
      Array.from({ length: streams }, () =>
        fx.store.append({
          streamId: `counter-${randomUUID()}`,
          expectedVersion: 0,
          events: Array.from({ length: perStream }, () => ({ type: 'Incremented', data: { by: 1 } })),
          metadata,
        }),
      ),
    );

  it('publishes what piled up during the outage within moments of NATS returning', { timeout: 90_000 }, async () => {
    await append(1, 1);
    await eventually(async () => (await unpublished()) === 0);

    await server.stop();
    await append(10, 5);
    expect(await unpublished()).toBe(50);
    // Restart at the worst moment: just as the relay starts waiting after several failed attempts in a row.
    await eventually(async () => watched.seen.failures >= 4, 45_000, 5);
    const returned = Date.now();
    await server.start();
    await eventually(async () => (await unpublished()) === 0, 30_000, 10);
    const drainMs = Date.now() - returned;
    console.info(`[recovery] outbox of 50 events drained ${drainMs} ms after NATS returned (bar: 1 s)`);

    const nc = await connect({ servers: server.url });
    try {
      const info = await (await nc.jetstreamManager()).streams.info(streamName('support'));
      expect(info.state.messages).toBe(51); // all of them, once each
    } finally {
      await nc.close();
    }
    // A recovery property with headroom for a loaded machine; the relay used to wait out a backoff of up to 5 s.
    expect(drainMs).toBeLessThanOrEqual(2_500);
  });
});
