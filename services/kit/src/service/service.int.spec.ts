import net from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateJwtKeys } from '../http/keys.js';
import { counterService } from '../test/fixture.js';
import {
  createTestDatabase,
  eventually,
  infraGate,
  postgresServerUrl,
  type TestDatabase,
} from '../testing/infra.js';
import {
  deleteNamespaceStreams,
  natsServerBinary,
  startNatsServer,
  uniqueNamespace,
  type NatsTestServer,
} from '../testing/nats.js';
import { runService, type ServiceConfig } from './service.js';
import { capturingLog } from '../testing/logs.js';

const server = await postgresServerUrl();
const run = infraGate(!!server && !!natsServerBinary(), 'Postgres and a nats-server binary');

/** A port nothing listens on yet. */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Postgres "coming up" late: a TCP proxy to the real server, started on `port` when asked. */
function latePostgres(port: number, target: URL) {
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    start: () => new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', () => resolve())),
    stop: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

describe.runIf(run)('runService', () => {
  let testDb: TestDatabase;
  let nats: NatsTestServer;
  const namespace = uniqueNamespace('runservice');
  const keys = generateJwtKeys();
  const configFor = (databaseUrl: string, natsUrl: string): ServiceConfig => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: 0,
    DATABASE_URL: databaseUrl,
    NATS_URL: natsUrl,
    BUS_NAMESPACE: namespace,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_ISSUER: 'ques-identity',
    JWT_AUDIENCE: 'ques',
  });

  beforeAll(async () => {
    testDb = await createTestDatabase();
    nats = await startNatsServer();
  });
  afterAll(async () => {
    if (nats) {
      await nats.start().catch(() => {});
      await deleteNamespaceStreams(nats.url, namespace).catch(() => {});
      await nats.dispose();
    }
    await testDb?.drop();
  });

  it('waits for Postgres and NATS that come up after it starts, saying why it waits, then serves', async () => {
    const pgPort = await freePort();
    const late = latePostgres(pgPort, new URL(testDb.url));
    const viaProxy = new URL(testDb.url);
    viaProxy.host = `127.0.0.1:${pgPort}`;
    await nats.stop();
    const { log, lines } = capturingLog();

    const starting = runService(counterService, {
      config: configFor(viaProxy.toString(), nats.url),
      log,
      signals: false,
      startup: { initialDelayMs: 100, maxDelayMs: 300, timeoutMs: 30_000 },
    });
    await eventually(async () => lines.some((l) => l.msg === 'waiting for Postgres'), 10_000);
    await late.start();
    await eventually(async () => lines.some((l) => l.msg === 'waiting for NATS'), 10_000);
    await nats.start();
    const service = await starting;
    try {
      expect(lines.find((l) => l.msg === 'waiting for Postgres')!.reason).toMatch(/ECONNREFUSED/);
      expect(lines.find((l) => l.msg === 'waiting for NATS')!.reason).toMatch(
        /CONNECTION_REFUSED|ECONNREFUSED/,
      );
      expect(lines.some((l) => l.msg === 'Postgres is reachable')).toBe(true);
      expect(lines.some((l) => l.msg === 'NATS is reachable')).toBe(true);

      expect((await fetch(`${service.url}/ready`)).status).toBe(200);
      const added = await fetch(`${service.url}/counters/c1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ by: 3 }),
      });
      expect(await added.json()).toEqual({ total: 3 });
    } finally {
      await service.stop();
      await late.stop();
    }
    // It closed what it opened: the bus and the pool.
    expect(service.ctx.bus.isHealthy()).toBe(false);
    await expect(service.ctx.db.selectFrom('counters').selectAll().execute()).rejects.toThrow();
    await expect(fetch(`${service.url}/health`)).rejects.toThrow();
  });

  it('gives up with the reason when Postgres never comes, and leaves nothing open', async () => {
    const nowhere = new URL(testDb.url);
    nowhere.host = `127.0.0.1:${await freePort()}`;
    const { log } = capturingLog();
    await expect(
      runService(counterService, {
        config: configFor(nowhere.toString(), nats.url),
        log,
        signals: false,
        startup: { initialDelayMs: 50, timeoutMs: 300 },
      }),
    ).rejects.toThrow(/Postgres was not reachable within 0 s \(\d+ attempts\): ECONNREFUSED/);
  });

  it('stops within its grace period when a request hangs: the hung connection is closed and the step named', async () => {
    const { connectPostgres } = await import('../db/database.js');
    const { InProcessEventBus } = await import('../bus/in-process-bus.js');
    const { log, lines } = capturingLog('warn');
    let reached = false;
    const database = connectPostgres<import('../test/fixture.js').CounterDB>({
      connectionString: testDb.url,
      schema: 'support',
    });
    const bus = new InProcessEventBus({ log: pino({ level: 'silent' }) });
    const hanging: typeof counterService = {
      ...counterService,
      async routes(app, parts, ctx) {
        await counterService.routes(app, parts, ctx);
        app.get('/hang', () => {
          reached = true;
          return new Promise(() => {});
        });
      },
    };
    const service = await runService(hanging, {
      config: configFor('', ''),
      database,
      bus,
      log,
      port: 0,
      shutdownGraceMs: 300,
    });
    const address = service.app.server.address() as net.AddressInfo;
    const hung = fetch(`http://127.0.0.1:${address.port}/hang`).then(
      () => 'answered',
      () => 'closed',
    );
    await eventually(async () => reached);
    await service.stop();
    expect(await hung).toBe('closed');
    expect(lines.some((l) => l.step === 'http' && String(l.msg).includes('did not finish in time'))).toBe(
      true,
    );
    await bus.close();
    await database.close();
  });

  it('uses injected infrastructure as is and leaves it open on stop (the launcher and tests own it)', async () => {
    const { connectPostgres } = await import('../db/database.js');
    const { InProcessEventBus } = await import('../bus/in-process-bus.js');
    const database = connectPostgres<import('../test/fixture.js').CounterDB>({
      connectionString: testDb.url,
      schema: 'support',
    });
    const bus = new InProcessEventBus({ log: pino({ level: 'silent' }) });
    const service = await runService(counterService, {
      config: configFor('', ''),
      database,
      bus,
      log: pino({ level: 'silent' }),
      port: 0,
    });
    await service.app.inject({ method: 'POST', url: '/counters/c2', payload: { by: 4 } });
    await service.stop();
    expect(bus.isHealthy()).toBe(true);
    expect(
      (await database.db.selectFrom('counters').select('total').where('id', '=', 'c2').executeTakeFirst())
        ?.total,
    ).toBe(4);
    await bus.close();
    await database.close();
  });
});
