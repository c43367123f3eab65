import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routesWithoutSchemas } from '../testing/routes.js';
import { createHttpApp, type HttpApp } from './http-app.js';
import { capturingLog } from '../testing/logs.js';

const silent = pino({ level: 'silent' });

describe('the kit HTTP app with the zod type provider', () => {
  const { log, lines } = capturingLog();
  let app: HttpApp;

  beforeAll(async () => {
    app = createHttpApp({ name: 'test', log });
    app.post(
      '/things/:id',
      {
        schema: {
          params: z.object({ id: z.uuid('That is not a thing id.') }),
          querystring: z.object({ dryRun: z.enum(['true', 'false']).optional() }),
          body: z.object({
            name: z.string().min(1, 'Please give the thing a name.'),
            size: z.number().int(),
          }),
          response: { 201: z.object({ id: z.uuid(), name: z.string(), size: z.number() }) },
        },
      },
      // Typed from the schemas: no casts.
      async (request, reply) =>
        reply.status(201).send({ id: request.params.id, name: request.body.name, size: request.body.size }),
    );
    app.get(
      '/broken',
      { schema: { response: { 200: z.object({ total: z.number() }) } } },
      async () => ({ total: 'many' }) as never,
    );
    await app.ready();
  });
  afterAll(async () => app.close());

  const post = (url: string, payload: unknown) =>
    app.inject({ method: 'POST', url, payload: payload as never });

  it('validates params, query and body and types them for the handler', async () => {
    const id = '0b9f5c1e-6a59-4c3f-9a57-3c0a7d0f1a11';
    const res = await post(`/things/${id}?dryRun=true`, { name: 'Lamp', size: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id, name: 'Lamp', size: 3 });
  });

  it("answers a request its schema refuses with 400 and the first issue's message", async () => {
    const id = '0b9f5c1e-6a59-4c3f-9a57-3c0a7d0f1a11';
    const noName = await post(`/things/${id}`, { name: '', size: 3 });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toEqual({ message: 'Please give the thing a name.', code: 'BAD_REQUEST' });
    const badId = await post('/things/not-an-id', { name: 'Lamp', size: 3 });
    expect(badId.json()).toEqual({ message: 'That is not a thing id.', code: 'BAD_REQUEST' });
    const badQuery = await post(`/things/${id}?dryRun=maybe`, { name: 'Lamp', size: 3 });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json().code).toBe('BAD_REQUEST');
  });

  it('turns a reply that breaks its response schema into a logged 500, never a silent success', async () => {
    const res = await app.inject({ method: 'GET', url: '/broken' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: 'INTERNAL',
    });
    expect(lines.some((l) => l.msg === 'response does not match its schema' && l.url === '/broken')).toBe(
      true,
    );
  });

  it('gives its own routes (/health, /ready) schemas, as every route must have', async () => {
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toEqual({
      status: 'ok',
      service: 'test',
    });
    const kitRoutes = routesWithoutSchemas(app).filter((r) => r.url === '/health' || r.url === '/ready');
    expect(kitRoutes).toEqual([]);
    expect(routesWithoutSchemas(app).map((r) => r.url)).not.toContain('/things/:id');
  });

  it('reports routes that lack the schemas they need', async () => {
    const bare = createHttpApp({ name: 'bare', log: pino({ level: 'silent' }) });
    bare.post('/items/:id', async () => ({ ok: true }));
    bare.get('/items', { schema: { response: { 200: z.array(z.string()) } } }, async () => []);
    await bare.ready();
    expect(
      routesWithoutSchemas(bare, { querystring: (r) => r.method === 'GET' && r.url === '/items' }),
    ).toEqual([
      { method: 'POST', url: '/items/:id', missing: ['params', 'body', 'response'] },
      { method: 'GET', url: '/items', missing: ['querystring'] },
    ]);
    await bare.close();
  });
});

/** Errors as `pg`, `pg-pool` and Kysely raise them when the database connection is lost or refused. */
const connectionLosses: Record<string, () => Error> = {
  'terminated backend (57P01)': () =>
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  'crash shutdown (57P02)': () =>
    Object.assign(new Error('terminating connection due to crash of another server process'), {
      code: '57P02',
    }),
  'starting up (57P03)': () =>
    Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
  'connection exception (08000)': () => Object.assign(new Error('connection exception'), { code: '08000' }),
  'connection does not exist (08003)': () =>
    Object.assign(new Error('connection does not exist'), { code: '08003' }),
  'connection failure (08006)': () => Object.assign(new Error('connection failure'), { code: '08006' }),
  'socket reset': () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  'server down': () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  'socket ended': () => new Error('Connection terminated unexpectedly'),
  'rollback on a broken client': () =>
    new Error('Client has encountered a connection error and is not queryable'),
  'wrapped in a cause': () =>
    new Error('could not append', {
      cause: Object.assign(new Error('terminating connection'), { code: '57P01' }),
    }),
};

describe('the HTTP error handler', () => {
  let app: HttpApp;
  beforeAll(async () => {
    app = createHttpApp({ name: 'test', log: silent });
    app.get('/loss/:kind', async (request) => {
      throw connectionLosses[(request.params as { kind: string }).kind]!();
    });
    app.get('/bug', async () => {
      throw new TypeError('undefined is not a function');
    });
    app.get('/other-sql-error', async () => {
      throw Object.assign(new Error('relation "nope" does not exist'), { code: '42P01' });
    });
    await app.ready();
  });
  afterAll(async () => app.close());

  it.each(Object.keys(connectionLosses))(
    'answers a lost database connection (%s) with 503 UNAVAILABLE and Retry-After',
    async (kind) => {
      const res = await app.inject({ method: 'GET', url: `/loss/${encodeURIComponent(kind)}` });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        message: 'Ques is having trouble right now. Please try again in a moment.',
        code: 'UNAVAILABLE',
      });
      expect(res.headers['retry-after']).toBe('1');
    },
  );

  it('still answers a programming error or another SQL error with 500 INTERNAL, without details', async () => {
    for (const url of ['/bug', '/other-sql-error']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        message: 'Something went wrong on our side. Please try again.',
        code: 'INTERNAL',
      });
    }
  });
});

describe('GET /health on the wire', () => {
  it('is answered by the server before Fastify (no hooks, no request log) with the route’s body, degraded included', async () => {
    let degraded: string[] = [];
    const { log, lines } = capturingLog();
    const app = createHttpApp({ name: 'probe', log, degraded: () => degraded });
    let hooked = 0;
    app.addHook('onRequest', (_request, _reply, done) => {
      hooked += 1;
      done();
    });
    app.get('/other', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const ok = await fetch(`${url}/health`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = await ok.json();
      expect(body).toEqual({ status: 'ok', service: 'probe' });
      expect(body).toEqual((await app.inject({ method: 'GET', url: '/health' })).json());
      degraded = ['bus'];
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'degraded', service: 'probe', degraded: ['bus'] });
      const hookedByInject = hooked;
      // Only the inject went through Fastify's hooks; the two probes on the wire did not.
      expect(hookedByInject).toBe(1);
      // Everything else still goes through Fastify: its hooks ran for /other, never for the probe on the wire.
      expect((await fetch(`${url}/other`)).status).toBe(200);
      expect(hooked).toBe(hookedByInject + 1);
      expect((await fetch(`${url}/health`, { method: 'POST' })).status).toBe(404);
      expect(hooked).toBe(hookedByInject + 2);
      expect(lines.filter((l) => l.url === '/health')).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
