import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, generateJwtKeys } from '@ques/kit';
import { buildBff } from './app.js';

const log = createLogger('bff-test', 'silent');
const ORIGIN = 'https://app.ques.test';

/** A stand-in identity service on a real socket: records what reaches it. */
async function startUpstream(): Promise<{ app: FastifyInstance; url: string; seen: { url: string; headers: Record<string, unknown>; body: unknown }[] }> {
  const seen: { url: string; headers: Record<string, unknown>; body: unknown }[] = [];
  const app = Fastify();
  app.all('/*', async (request, reply) => {
    seen.push({ url: request.url, headers: request.headers, body: request.body });
    // As a service answers a retried idempotent request.
    if (request.headers['idempotency-key']) void reply.header('idempotent-replayed', 'true');
    return reply.status(201).header('x-next-cursor', 'abc').send({ message: 'from identity' });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen };
}

describe('BFF', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let bff: FastifyInstance;
  let down: FastifyInstance;
  const keys = generateJwtKeys();
  const jwt = { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' };

  beforeAll(async () => {
    upstream = await startUpstream();
    const webDist = mkdtempSync(join(tmpdir(), 'bff-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Ques shell</title>');
    writeFileSync(join(webDist, 'assets', 'app-123.js'), 'console.log(1)');
    bff = await buildBff({ log, upstreams: { identity: upstream.url }, jwt, publicOrigin: ORIGIN, webDist, authRateLimitPerMinute: 3 });
    // Port 9 (discard) on loopback: nothing listens there.
    down = await buildBff({ log, upstreams: { identity: 'http://127.0.0.1:9' }, jwt, publicOrigin: ORIGIN });
  });
  afterAll(async () => {
    await bff.close();
    await down.close();
    await upstream.app.close();
  });

  it('forwards a call to the service that owns it with its body, headers and a correlation id', async () => {
    const res = await bff.inject({ method: 'POST', url: '/api/users/logout', payload: { refreshToken: 'r' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ message: 'from identity' });
    expect(res.headers['x-next-cursor']).toBe('abc');
    const call = upstream.seen.at(-1)!;
    expect(call.url).toBe('/api/users/logout');
    expect(call.body).toEqual({ refreshToken: 'r' });
    expect(call.headers['x-correlation-id']).toEqual(expect.any(String));
  });

  it('forwards an Idempotency-Key to the service and passes Idempotent-Replayed back', async () => {
    const res = await bff.inject({ method: 'POST', url: '/api/users/logout', payload: {}, headers: { 'idempotency-key': 'key-123', origin: ORIGIN } });
    expect(upstream.seen.at(-1)!.headers['idempotency-key']).toBe('key-123');
    expect(res.headers['idempotent-replayed']).toBe('true');
    expect(String(res.headers['access-control-expose-headers'])).toContain('Idempotent-Replayed');
  });

  it("forwards the browser's device token (X-Ques-Device, issue 16) to the service", async () => {
    await bff.inject({ method: 'POST', url: '/api/users/logout', payload: {}, headers: { 'x-ques-device': 'device-0123456789abcdef', origin: ORIGIN } });
    expect(upstream.seen.at(-1)!.headers['x-ques-device']).toBe('device-0123456789abcdef');
  });

  it('turns away a protected call without a valid token before it reaches the service', async () => {
    const before = upstream.seen.length;
    const none = await bff.inject({ method: 'GET', url: '/api/users/profile' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ message: 'Not authorized, no token' });
    const forged = await bff.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(forged.statusCode).toBe(401);
    expect(upstream.seen.length).toBe(before);
  });

  it('sends a strict content security policy and allows only the app origin', async () => {
    const res = await bff.inject({ method: 'GET', url: '/', headers: { origin: ORIGIN } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // CORS is for the API; the app's own pages and files are same-origin and carry no CORS headers.
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const api = await bff.inject({ method: 'GET', url: '/api/users/public/ada', headers: { origin: ORIGIN } });
    expect(api.headers['access-control-allow-origin']).toBe(ORIGIN);
    const other = await bff.inject({ method: 'GET', url: '/api/users/public/ada', headers: { origin: 'https://evil.test' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('limits credential calls per client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await bff.inject({ method: 'POST', url: '/api/users/login', payload: { email: 'ada@example.com', password: 'a long enough password' }, remoteAddress: '10.0.0.7' });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 3)).toEqual([201, 201, 201]);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });

  it('answers 503 with a clear message when a service is unreachable', async () => {
    const res = await down.inject({ method: 'GET', url: '/api/users/public/ada' });
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/try again/i);
  });

  it('serves the app shell for client routes, hashed assets as immutable, and 404 JSON for unknown /api calls', async () => {
    const page = await bff.inject({ method: 'GET', url: '/ask/ada' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Ques shell');
    const asset = await bff.inject({ method: 'GET', url: '/assets/app-123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await bff.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ message: 'Not found' });
  });
});
