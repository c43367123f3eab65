import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '@ques/contracts';
import { createLogger, createMetrics, generateJwtKeys, type Metrics } from '@ques/kit';
import { buildBff } from './app.js';
import { loadBffConfig } from './config.js';

const log = createLogger('bff-test', 'silent');
const keys = generateJwtKeys();
const jwt = { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' };
// Two calls of a stand-in questions service (the BFF forwards declared calls: params and bodies validated at the edge).
const calls = [
  defineCall({
    id: 'balancingGet',
    method: 'GET',
    path: '/api/questions/:id',
    service: 'questions',
    summary: 'A read',
    auth: 'none',
    schema: {
      params: z.object({ id: z.string() }),
      response: { 200: z.object({ id: z.string(), instance: z.string() }) },
    },
  }),
  defineCall({
    id: 'balancingPost',
    method: 'POST',
    path: '/api/questions',
    service: 'questions',
    summary: 'A write',
    auth: 'none',
    schema: { body: z.object({}), response: { 200: z.object({ instance: z.string() }) } },
  }),
];

/** A stand-in questions instance on a real port, answering with its name after a little work. */
async function questionsInstance(name: string, delayMs = 2) {
  const app = Fastify({ return503OnClosing: true });
  let served = 0;
  app.get('/api/questions/:id', async () => {
    await new Promise((r) => setTimeout(r, delayMs));
    served++;
    return { id: 'q', instance: name };
  });
  app.post('/api/questions', async () => ({ instance: name }));
  app.get('/ready', async () => ({ status: 'ready' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, served: () => served };
}

/** Kills an instance the hard way: every open connection cut (in-flight requests included), then the listener closed. */
async function kill(app: FastifyInstance) {
  app.server.closeAllConnections();
  await new Promise<void>((resolve) => app.server.close(() => resolve()));
}

const opened: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close().catch(() => undefined);
});

async function bffFor(questions: string, metrics: Metrics = createMetrics('bff', { defaultMetrics: false })) {
  const bff = await buildBff({
    log,
    metrics,
    upstreams: { identity: 'http://127.0.0.1:9', questions },
    jwt,
    publicOrigin: 'http://localhost:3000',
    calls,
  });
  const url = await bff.listen({ port: 0, host: '127.0.0.1' });
  opened.push(bff);
  return { bff, url, metrics };
}

/** `total` GETs through the BFF, `concurrency` at a time, calling `midway` once after `at` of them have finished. */
async function traffic(
  url: string,
  total: number,
  concurrency: number,
  at: number,
  midway: () => Promise<void>,
) {
  const statuses: number[] = [];
  const instances: string[] = [];
  let started = 0;
  const fired: Promise<void>[] = [];
  const worker = async () => {
    while (started < total) {
      started++;
      const res = await fetch(`${url}/api/questions/q`);
      statuses.push(res.status);
      const body = (await res.json()) as { instance?: string };
      if (body.instance) instances.push(body.instance);
      if (statuses.length >= at && fired.length === 0) fired.push(midway());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await Promise.all(fired);
  return { statuses, instances };
}

describe('the BFF balances replicas', () => {
  it('reads QUESTIONS_URL as a comma-separated list of instances', () => {
    const config = loadBffConfig({
      IDENTITY_URL: 'http://i:3001',
      QUESTIONS_URL: 'http://a:3002, http://b:3002',
      JWT_PUBLIC_KEY: 'k',
    });
    expect(config.QUESTIONS_URL).toEqual(['http://a:3002', 'http://b:3002']);
    expect(config.IDENTITY_URL).toEqual(['http://i:3001']);
    expect(() =>
      loadBffConfig({
        IDENTITY_URL: 'http://i:3001',
        QUESTIONS_URL: 'http://a:3002,not a url',
        JWT_PUBLIC_KEY: 'k',
      }),
    ).toThrow(/QUESTIONS_URL/);
  });

  it('loses no GET when one of two questions instances is killed mid-traffic, and keeps serving from the other', async () => {
    const a = await questionsInstance('a', 5);
    const b = await questionsInstance('b', 5);
    opened.push(b.app);
    const { url, metrics } = await bffFor(`${a.url},${b.url}`);

    const { statuses, instances } = await traffic(url, 400, 8, 100, () => kill(a.app));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(400);
    // Round-robin before the kill, b alone after it.
    expect(a.served()).toBeGreaterThan(20);
    expect(instances.slice(-100).every((i) => i === 'b')).toBe(true);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /ques_bff_upstream_up\{upstream="questions",instance="http:\/\/127\.0\.0\.1:\d+",service="bff"\} 0/,
    );
  });

  it('loses no GET while an instance shuts down gracefully (503 while closing, then refused)', async () => {
    const a = await questionsInstance('a', 5);
    const b = await questionsInstance('b', 5);
    opened.push(b.app);
    const { url } = await bffFor(`${a.url},${b.url}`);
    // Fastify's close: in-flight requests finish, new ones on open connections get 503, new connections are refused.
    const closing: Promise<unknown>[] = [];
    const { statuses } = await traffic(url, 300, 8, 80, async () => void closing.push(a.app.close()));
    // As runService does after its grace period: a keep-alive connection left open must not hold the close.
    a.app.server.closeAllConnections();
    await Promise.all(closing);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it('stays ready when an upstream is down (no cascade), says degraded in /health, and never serves metrics publicly', async () => {
    const { url, metrics } = await bffFor('http://127.0.0.1:9');
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    expect((await fetch(`${url}/api/questions/q`)).status).toBe(503);
    expect(await (await fetch(`${url}/health`)).json()).toEqual({
      status: 'degraded',
      service: 'bff',
      degraded: ['questions: no instance answering'],
    });
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    for (const path of ['/metrics', '/api/metrics'])
      expect((await fetch(`${url}${path}`)).status, path).toBe(404);
    expect(await metrics.registry.metrics()).toContain(
      'ques_http_requests_total{method="GET",route="/api/questions/:id",status="503",service="bff"} 1',
    );
  });

  it('never answers with metrics on the public port, whatever the route table (the real /api included)', async () => {
    const metrics = createMetrics('bff', { defaultMetrics: false });
    const bff = await buildBff({
      log,
      metrics,
      upstreams: { identity: 'http://127.0.0.1:9', questions: 'http://127.0.0.1:9' },
      jwt,
      publicOrigin: 'http://localhost:3000',
    });
    opened.push(bff);
    await bff.inject({ method: 'GET', url: '/health' });
    for (const url of ['/metrics', '/api/metrics', '/api/questions/metrics', '/api/users/metrics']) {
      const res = await bff.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('ques_http_requests_total');
      expect(res.body, url).not.toContain('# TYPE');
    }
  });

  it('resends a POST only when the connection was refused (it never reached the instance)', async () => {
    const b = await questionsInstance('b');
    opened.push(b.app);
    const { url, metrics } = await bffFor(`http://127.0.0.1:9,${b.url}`);
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${url}/api/questions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ instance: 'b' });
    }
    expect(await metrics.registry.metrics()).toContain(
      'ques_bff_upstream_retries_total{upstream="questions",reason="ECONNREFUSED",service="bff"} 1',
    );
  });
});
