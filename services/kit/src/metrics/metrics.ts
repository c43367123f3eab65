import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConsumerStats, EventBus } from '../bus/bus.js';

/**
 * Prometheus metrics (ADR 0027): one registry per service or BFF, served in the text format on a port of its own
 * (`METRICS_PORT`, never the public one), optionally behind a bearer token (`METRICS_TOKEN`).
 */
export interface Metrics {
  registry: Registry;
  /** The service (or `bff`) every series is labelled with. */
  service: string;
}

export function createMetrics(service: string, opts: { defaultMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (opts.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, prefix: 'ques_' });
  return { registry, service };
}

/**
 * Request rate (`ques_http_requests_total`) and latency (`ques_http_request_duration_seconds`) per route, for the
 * routes registered after this call.
 */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics): void {
  const requests = new Counter({
    name: 'ques_http_requests_total',
    help: 'HTTP requests served, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'],
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: 'ques_http_request_duration_seconds',
    help: 'HTTP request latency, by method and route pattern.',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics.registry],
  });
  const observe = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // The route pattern, never the raw URL: ids in paths would make a series per question.
    const route = request.routeOptions.url ?? request.url.split('?')[0]!;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  };
  // Added to each route registered from now on, never to the probes (`createHttpApp` registers them before): the hot
  // `/health` and `/ready` pay nothing for metrics. Requests no route matched are not counted.
  app.addHook('onRoute', (route) => {
    if (route.url === '/health' || route.url === '/ready') return;
    const existing = route.onResponse;
    route.onResponse = existing ? [...(Array.isArray(existing) ? existing : [existing]), observe] : [observe];
  });
}

/** `ques_bus_connected`: 1 while the event bus is connected; 0 is the *degraded* state (the outbox keeps events). */
export function registerBusMetrics(metrics: Metrics, bus: EventBus): void {
  new Gauge({
    name: 'ques_bus_connected',
    help: '1 while the event bus (NATS) is connected, 0 while the service runs degraded on its outbox.',
    registers: [metrics.registry],
    collect() {
      this.set(bus.isHealthy() ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ques_consumer_lag',
    help: 'Messages of the stream not yet delivered to the durable consumer (JetStream num_pending).',
    labelNames: ['consumer'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const stat of await consumerStatsOf(bus)) this.set({ consumer: stat.durable }, stat.pending);
    },
  });
  new Gauge({
    name: 'ques_consumer_ack_pending',
    help: 'Messages delivered to the durable consumer and not yet acknowledged.',
    labelNames: ['consumer'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const stat of await consumerStatsOf(bus)) this.set({ consumer: stat.durable }, stat.ackPending);
    },
  });
  new Gauge({
    name: 'ques_consumer_redelivered',
    help: 'Messages currently redelivered to the durable consumer (JetStream num_redelivered).',
    labelNames: ['consumer'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      for (const stat of await consumerStatsOf(bus)) this.set({ consumer: stat.durable }, stat.redelivered);
    },
  });
}

/**
 * Shares one call among the collectors of one scrape (they run together): the gauges fed by the same query or
 * server request ask once, and the next scrape asks again.
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () =>
    (inFlight ??= load().finally(() => {
      inFlight = null;
    }));
}

const statsLoaders = new WeakMap<EventBus, () => Promise<ConsumerStats[]>>();
/** Consumer figures of one scrape (lag, ack pending, redelivered ask the server once). */
function consumerStatsOf(bus: EventBus): Promise<ConsumerStats[]> {
  let load = statsLoaders.get(bus);
  if (!load) {
    load = once(() => (bus.consumerStats?.() ?? Promise.resolve([])).catch(() => [] as ConsumerStats[]));
    statsLoaders.set(bus, load);
  }
  return load();
}

/**
 * The service's pipeline as seen in its own tables: outbox backlog and age, dead letters per consumer, scheduler
 * backlog and lateness. Read at scrape time (cheap aggregate queries on indexed or small tables).
 */
export function registerPipelineMetrics(metrics: Metrics, db: Kysely<any>): void {
  const reg = [metrics.registry];
  const outbox = async () =>
    (
      await sql<{ backlog: string; oldest: number | null }>`
        SELECT count(*) AS backlog, extract(epoch FROM now() - min(created_at))::float8 AS oldest
        FROM outbox WHERE published_at IS NULL`.execute(db)
    ).rows[0];
  const outboxRow = once(outbox);
  new Gauge({
    name: 'ques_outbox_backlog',
    help: 'Integration events in the outbox not yet published to the bus.',
    registers: reg,
    async collect() {
      this.set(Number((await outboxRow())?.backlog ?? 0));
    },
  });
  new Gauge({
    name: 'ques_outbox_oldest_age_seconds',
    help: 'Age of the oldest unpublished outbox row (0 when the outbox is drained).',
    registers: reg,
    async collect() {
      this.set(Math.max(0, Number((await outboxRow())?.oldest ?? 0)));
    },
  });
  new Gauge({
    name: 'ques_dead_letters',
    help: 'Parked (poison) messages waiting for an operator, per durable consumer.',
    labelNames: ['consumer'],
    registers: reg,
    async collect() {
      this.reset();
      const { rows } = await sql<{
        consumer: string;
        n: string;
      }>`SELECT consumer, count(*) AS n FROM dead_letters GROUP BY consumer`.execute(db);
      for (const row of rows) this.set({ consumer: row.consumer }, Number(row.n));
    },
  });
  const due = async () =>
    (
      await sql<{ backlog: string; lateness: number | null }>`
        SELECT count(*) AS backlog, extract(epoch FROM now() - min(due_at))::float8 AS lateness
        FROM scheduled_jobs WHERE status = 'pending' AND due_at <= now()`.execute(db)
    ).rows[0];
  const dueRow = once(due);
  new Gauge({
    name: 'ques_scheduler_backlog',
    help: 'Scheduled jobs past their due time and not yet run.',
    registers: reg,
    async collect() {
      this.set(Number((await dueRow())?.backlog ?? 0));
    },
  });
  new Gauge({
    name: 'ques_scheduler_lateness_seconds',
    help: 'How late the most overdue pending job is (0 when none is due).',
    registers: reg,
    async collect() {
      this.set(Math.max(0, Number((await dueRow())?.lateness ?? 0)));
    },
  });
}

export interface MetricsServerOptions {
  port: number;
  /** Loopback (127.0.0.1) unless given; any other address needs `token` (issue 33, ADR 0054). */
  host?: string;
  /** When set, scrapes must send `Authorization: Bearer <token>`. */
  token?: string;
}

export const METRICS_TOKEN_REQUIRED = (host: string) =>
  `METRICS_TOKEN is required to serve metrics on ${host}: set it, or bind METRICS_HOST to loopback (127.0.0.1).`;

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** Serves `GET /metrics` alone, on its own port: the public port (and the BFF's `/api`) never has it. */
export async function serveMetrics(
  metrics: Metrics,
  opts: MetricsServerOptions,
): Promise<{ url: string; close(): Promise<void> }> {
  const bind = opts.host ?? '127.0.0.1';
  // Metrics tell a lot about the product (traffic, failures, queue depths): only the machine itself reads them
  // without a token.
  if (!isLoopback(bind) && !opts.token) throw new Error(METRICS_TOKEN_REQUIRED(bind));
  const expected = opts.token ? Buffer.from(`Bearer ${opts.token}`) : null;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    if (expected) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res
          .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
          .end('Unauthorized');
        return;
      }
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (err: unknown) =>
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, bind, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind.includes(':') ? `[${bind}]` : bind;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection must not hold the shutdown.
        server.closeAllConnections();
      }),
  };
}

/** The metric types, re-exported so services and the BFF register their own series on the kit's prom-client. */
export { Counter, Gauge, Histogram } from 'prom-client';
