import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateJwtKeys } from '../http/keys.js';
import { counterService, type CounterDB } from '../test/fixture.js';
import {
  createTestDatabase,
  eventually,
  infraGate,
  postgresServerUrl,
  type TestDatabase,
} from '../testing/infra.js';
import { capturingLog } from '../testing/logs.js';
import {
  deleteNamespaceStreams,
  natsServerBinary,
  startNatsServer,
  uniqueNamespace,
  type NatsTestServer,
} from '../testing/nats.js';
import { runService, type RunningService, type ServiceConfig } from '../service/service.js';
import { METRICS_TOKEN_REQUIRED } from './metrics.js';

const run = infraGate(
  !!(await postgresServerUrl()) && !!natsServerBinary(),
  'Postgres and a nats-server binary',
);

/** The value of a series in Prometheus text (first line matching name and labels). */
function sample(text: string, name: string, labels = ''): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.split(' ').at(-1)) : null;
}

describe.runIf(run)('readiness that means "can serve", and metrics on a port of their own', () => {
  let testDb: TestDatabase;
  // A private nats-server this test stops and starts (never the shared one).
  let nats: NatsTestServer;
  let service: RunningService<CounterDB, ServiceConfig, unknown>;
  const namespace = uniqueNamespace('ready');
  const keys = generateJwtKeys();
  const config = (): ServiceConfig => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    PORT: 0,
    DATABASE_URL: testDb.url,
    NATS_URL: nats.url,
    BUS_NAMESPACE: namespace,
    JWT_PUBLIC_KEY: keys.publicKey,
    JWT_ISSUER: 'ques-identity',
    JWT_AUDIENCE: 'ques',
    METRICS_TOKEN: 'a-scrape-token-of-16+',
  });
  const scrape = async (token = 'a-scrape-token-of-16+') => {
    const res = await fetch(service.metricsUrl!, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    nats = await startNatsServer();
    service = await runService(counterService, {
      config: config(),
      log: capturingLog().log,
      signals: false,
      metricsPort: 0,
      pollIntervalMs: 100,
    });
  });
  afterAll(async () => {
    await service?.stop();
    if (nats) {
      await nats.start().catch(() => {});
      await deleteNamespaceStreams(nats.url, namespace).catch(() => {});
      await nats.dispose();
    }
    await testDb?.drop();
  });

  it('exposes the named series on the metrics port, behind its token, and never on the public port', async () => {
    await fetch(`${service.url}/counters/m1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ by: 1 }),
    });
    const { status, text } = await scrape();
    expect(status).toBe(200);
    expect(sample(text, 'ques_http_requests_total', 'route="/counters/:id"')).toBe(1);
    expect(text).toContain('ques_http_request_duration_seconds_bucket{');
    for (const name of [
      'ques_outbox_backlog',
      'ques_outbox_oldest_age_seconds',
      'ques_scheduler_backlog',
      'ques_scheduler_lateness_seconds',
    ])
      expect(sample(text, name), name).not.toBeNull();
    expect(text).toContain('# TYPE ques_dead_letters gauge');
    expect(sample(text, 'ques_bus_connected')).toBe(1);
    expect(sample(text, 'ques_consumer_lag', 'consumer="support--revocations"')).toBe(0);
    expect(sample(text, 'ques_consumer_redelivered', 'consumer="support--revocations"')).toBe(0);

    expect((await scrape('wrong-token-of-the-same-size')).status).toBe(401);
    expect((await fetch(service.metricsUrl!)).status).toBe(401);
    expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
  });

  it('binds the metrics port to loopback by default; told to bind elsewhere without METRICS_TOKEN, a service refuses to start (ADR 0054)', async () => {
    expect(new URL(service.metricsUrl!).hostname).toBe('127.0.0.1');
    const { METRICS_TOKEN: _, ...untokened } = config();
    const other = uniqueNamespace('metrics-host');
    await expect(
      runService(counterService, {
        config: { ...untokened, BUS_NAMESPACE: other, METRICS_HOST: '0.0.0.0' },
        log: capturingLog().log,
        signals: false,
        metricsPort: 0,
        port: 0,
      }),
    ).rejects.toThrow(METRICS_TOKEN_REQUIRED('0.0.0.0'));
    await deleteNamespaceStreams(nats.url, other).catch(() => {});
  });

  it('stays ready through a NATS outage, says degraded in /health and metrics, keeps events in the outbox', async () => {
    expect(await (await fetch(`${service.url}/health`)).json()).toEqual({ status: 'ok', service: 'support' });
    await nats.stop();
    try {
      const health = await eventually(async () => {
        const body = (await (await fetch(`${service.url}/health`)).json()) as { status: string };
        return body.status === 'degraded' ? body : null;
      });
      expect(health).toEqual({
        status: 'degraded',
        service: 'support',
        degraded: ['event bus disconnected: events wait in the outbox'],
      });
      const ready = await fetch(`${service.url}/ready`);
      expect(ready.status).toBe(200);
      // Still serving writes: the event waits in the outbox.
      const added = await fetch(`${service.url}/counters/m2`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ by: 2 }),
      });
      expect(added.status).toBe(200);
      const { text } = await scrape();
      expect(sample(text, 'ques_bus_connected')).toBe(0);
      expect(sample(text, 'ques_outbox_backlog')).toBeGreaterThanOrEqual(1);
    } finally {
      await nats.start();
    }
    await eventually(
      async () =>
        ((await (await fetch(`${service.url}/health`)).json()) as { status: string }).status === 'ok',
      20_000,
    );
    await eventually(async () => sample((await scrape()).text, 'ques_outbox_backlog') === 0, 20_000);
  });
});
