import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { routesWithoutSchemas } from '../testing/routes.js';
import { createHttpApp, type HttpApp } from './http-app.js';

/** Log lines written by the app, to see what it reports about its own mistakes. */
function capturingLog() {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

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
