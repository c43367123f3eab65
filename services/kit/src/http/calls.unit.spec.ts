import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '@ques/contracts';
import { routesWithoutSchemas } from '../testing/index.js';
import { routeFor } from './calls.js';
import { createHttpApp, registeredRoutes } from './http-app.js';

const echo = defineCall({
  id: 'echoThing',
  method: 'POST',
  path: '/api/things/:id',
  service: 'support',
  summary: 'Echoes a thing',
  auth: 'none',
  idempotent: true,
  errors: { 400: ['Name is required'] },
  schema: {
    params: z.object({ id: z.string() }),
    body: z.object({ name: z.string({ error: 'Name is required' }) }),
    response: { 200: z.object({ id: z.string(), name: z.string() }) },
  },
});

describe('routeFor', () => {
  it('registers a declared call with its schemas, error responses and idempotency opt-in', async () => {
    const app = createHttpApp({ name: 'test', log: pino({ level: 'silent' }) });
    routeFor(app, echo, async (request) => ({ id: request.params.id, name: request.body.name }));
    await app.ready();

    const route = registeredRoutes(app).find((r) => r.url === echo.path && r.method === 'POST');
    expect(route?.config).toMatchObject({ idempotent: true });
    expect(Object.keys((route?.schema as { response: object }).response)).toEqual(['200', '400']);
    expect(routesWithoutSchemas(app)).toEqual([]);

    const ok = await app.inject({ method: 'POST', url: '/api/things/7', payload: { name: 'ada' } });
    expect(ok.json()).toEqual({ id: '7', name: 'ada' });
    const bad = await app.inject({ method: 'POST', url: '/api/things/7', payload: {} });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'Name is required', code: 'BAD_REQUEST' });
    await app.close();
  });
});
