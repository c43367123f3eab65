import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS, BROWSER_CALLS, defineCall } from '@ques/contracts';
import { createLogger, generateJwtKeys } from '@ques/kit';
import { routesWithoutSchemas } from '@ques/kit/testing';
import { z } from 'zod';
import { buildBff } from './app.js';
import { API_ROUTES, forwardedCalls, routeKey, toApiRoute, type ApiRoute } from './routes.js';

/** The hand-written route table of the BFF before the declarations (frozen: what every client relied on). */
const TODAY: ApiRoute[] = [
  { method: 'POST', url: '/api/users', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/login', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/refresh-token', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/logout', service: 'identity' },
  { method: 'GET', url: '/api/users/profile', service: 'identity', auth: true },
  { method: 'PUT', url: '/api/users/profile', service: 'identity', auth: true },
  { method: 'GET', url: '/api/users/public/:username', service: 'identity' },
  { method: 'POST', url: '/api/users/avatar', service: 'identity', auth: true, upload: true },
  { method: 'DELETE', url: '/api/users/profile/:id', service: 'identity', auth: true },
  { method: 'POST', url: '/api/users/reset-password', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/reset-password-confirm', service: 'identity', rateLimit: 'auth' },
  { method: 'GET', url: '/images/avatars/:userId/:file', service: 'identity' },
  { method: 'GET', url: '/api/support/captcha', service: 'support' },
  { method: 'POST', url: '/api/support/send', service: 'support' },
  { method: 'GET', url: '/api/questions', service: 'questions' },
  { method: 'POST', url: '/api/questions', service: 'questions', rateLimit: 'auth' },
  { method: 'GET', url: '/api/questions/:id', service: 'questions' },
  { method: 'PUT', url: '/api/questions/:id/answer', service: 'questions', auth: true },
  { method: 'PATCH', url: '/api/questions/:id', service: 'questions', auth: true },
  { method: 'DELETE', url: '/api/questions/:id', service: 'questions', auth: true },
  // Owner control over asking (issue 16).
  { method: 'GET', url: '/api/asking/status/:username', service: 'questions' },
  { method: 'GET', url: '/api/asking/settings', service: 'questions', auth: true },
  { method: 'PUT', url: '/api/asking/settings', service: 'questions', auth: true },
  { method: 'GET', url: '/api/asking/blocks', service: 'questions', auth: true },
  { method: 'DELETE', url: '/api/asking/blocks/:id', service: 'questions', auth: true },
  { method: 'POST', url: '/api/questions/:id/block', service: 'questions', auth: true },
  { method: 'GET', url: '/api/payments/tipOptions', service: 'payments' },
  { method: 'PUT', url: '/api/payments/tipOptions', service: 'payments', auth: true },
  { method: 'POST', url: '/api/payments/connect', service: 'payments', auth: true },
  { method: 'GET', url: '/api/payments/account-status', service: 'payments', auth: true },
  { method: 'GET', url: '/api/payments/earnings', service: 'payments', auth: true },
  { method: 'POST', url: '/api/payments/process/:id/finalize-payment', service: 'payments', auth: true },
  { method: 'POST', url: '/api/payments/process/:id/cancel-payment', service: 'payments', auth: true },
  { method: 'POST', url: '/api/checkout/create-checkout-session', service: 'payments', rateLimit: 'auth' },
  { method: 'POST', url: '/api/payments/webhook', service: 'payments', raw: true },
  { method: 'GET', url: '/pay/test/checkout/:id', service: 'payments' },
  { method: 'POST', url: '/pay/test/checkout/:id/pay', service: 'payments', raw: true },
  { method: 'POST', url: '/pay/test/checkout/:id/cancel', service: 'payments', raw: true },
  { method: 'GET', url: '/pay/test/onboarding/:accountId', service: 'payments' },
  { method: 'POST', url: '/pay/test/onboarding/:accountId/complete', service: 'payments', raw: true },
];

const keyOf = (route: ApiRoute) => routeKey({ method: route.method, path: route.url });

describe('the forwarding table, built from the declarations', () => {
  it("covers every route of the hand-written table it replaced from API_CALLS + BROWSER_CALLS, each as it was routed", () => {
    const forwarded = new Map(API_ROUTES.map((route) => [keyOf(route), route]));
    for (const route of TODAY) {
      const now = forwarded.get(keyOf(route));
      expect(now, keyOf(route)).toBeDefined();
      // Same service, token check, rate limit and body handling (parameter names may differ).
      expect({ ...now, url: keyOf(now!) }, keyOf(route)).toEqual({ ...route, url: keyOf(route) });
    }
    // Anything beyond the old table is a call a service declared since.
    const today = new Set(TODAY.map(keyOf));
    const declared = new Set([...API_CALLS, ...BROWSER_CALLS].map(routeKey));
    for (const key of forwarded.keys()) if (!today.has(key)) expect(declared.has(key), key).toBe(true);
    expect(forwarded.size).toBe(API_ROUTES.length);
  });

  it('refuses two declarations of one route, parameter names aside', () => {
    const login = (id: string, path: string) =>
      defineCall({
        id,
        method: 'POST',
        path,
        service: 'identity',
        summary: 'declared',
        auth: 'none',
        schema: { body: z.object({ email: z.string() }), response: { 200: z.object({ ok: z.boolean() }) } },
      });
    expect(forwardedCalls([login('a', '/api/users/:id/x')])).toHaveLength(1);
    expect(() => forwardedCalls([login('a', '/api/users/:id/x'), login('b', '/api/users/:userId/x')])).toThrow(
      /declared twice/,
    );
  });

  it('keeps the ApiRoute shape for the route table users (fuzz, benchmarks)', () => {
    expect(toApiRoute(API_CALLS.find((c) => c.path === '/api/users/avatar')!)).toEqual({
      method: 'POST',
      url: '/api/users/avatar',
      service: 'identity',
      auth: true,
      upload: true,
    });
  });
});

describe('schemas on every BFF route', () => {
  let bff: Awaited<ReturnType<typeof buildBff>>;
  beforeAll(async () => {
    const keys = generateJwtKeys();
    // With a web build, so the web app's routes are walked too.
    const webDist = mkdtempSync(join(tmpdir(), 'bff-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Ques shell</title>');
    bff = await buildBff({
      webDist,
      log: createLogger('bff-test', 'silent'),
      upstreams: { identity: 'http://127.0.0.1:9' },
      jwt: { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' },
      publicOrigin: 'https://app.ques.test',
    });
    await bff.ready();
  });
  afterAll(async () => bff.close());

  it('registers no route without request and response schemas (only the docs UI files are left out)', () => {
    const missing = routesWithoutSchemas(bff, {
      // Swagger UI's own files and pages (served by @fastify/swagger-ui, documented nowhere).
      ignore: ({ url }) => url === '/api/docs' || url.startsWith('/api/docs/'),
      querystring: ({ method, url }) => method === 'GET' && ['/api/questions', '/api/payments/tipOptions', '/api/payments/account-status'].includes(url),
    });
    expect(missing).toEqual([]);
  });

  it('forwards every call of the table', () => {
    for (const route of API_ROUTES) expect(bff.hasRoute({ method: route.method, url: route.url }), keyOf(route)).toBe(true);
  });
});
