import { createServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, generateJwtKeys, registerJwt, signAccessToken } from '@ques/kit';
import { buildBff } from './app.js';
import { BODY_MESSAGES, JSON_BODY_LIMIT, JSON_DEPTH_LIMIT, jsonDepthExceeds } from './body.js';
import { HSTS, PERMISSIONS_POLICY } from './headers.js';

const log = createLogger('bff-test', 'silent');
const ORIGIN = 'https://app.ques.test';
const keys = generateJwtKeys();
const jwt = { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' };

/** A stand-in for every service: records the exact bytes that reach it. */
async function startUpstream() {
  const seen: { method: string; url: string; raw: string; headers: Record<string, unknown> }[] = [];
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.all('/*', async (request, reply) => {
    seen.push({ method: request.method, url: request.url, raw: Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '', headers: request.headers });
    if (request.url.startsWith('/api/users/public/')) return reply.header('cache-control', 'public, max-age=60').send({ name: 'Ada' });
    return reply.send({ ok: true });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen };
}

describe('BFF edge: bodies', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let bff: FastifyInstance;
  beforeAll(async () => {
    upstream = await startUpstream();
    const url = upstream.url;
    bff = await buildBff({ log, upstreams: { identity: url, questions: url, payments: url, support: url }, jwt, publicOrigin: ORIGIN, authRateLimitPerMinute: 10_000 });
  });
  afterAll(async () => {
    await bff.close();
    await upstream.app.close();
  });

  const post = (payload: string, url = '/api/users/logout', headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    bff.inject({ method: 'POST', url, payload, headers });

  it("forwards the client's exact bytes (key order, spacing, big numbers), never a re-serialisation", async () => {
    const body = '{ "refreshToken" : "r",\n  "n": 12345678901234567890, "z": 1, "a": "\\u00e9" }';
    const res = await post(body);
    expect(res.statusCode).toBe(200);
    expect(upstream.seen.at(-1)!.raw).toBe(body);
    expect(upstream.seen.at(-1)!.headers['content-type']).toBe('application/json');
  });

  it('refuses a body nested deeper than the limit with a clear 400, and the process lives (no stack overflow)', async () => {
    const before = upstream.seen.length;
    for (const body of ['['.repeat(30_000) + ']'.repeat(30_000), '{"a":'.repeat(40) + '1' + '}'.repeat(40), '['.repeat(JSON_DEPTH_LIMIT + 1)]) {
      const res = await post(body, '/api/questions');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: BODY_MESSAGES.tooDeep, code: 'BAD_REQUEST' });
    }
    expect(upstream.seen.length).toBe(before);
    // At the limit it still goes through (the service judges the fields).
    const atLimit = await post('{"a":'.repeat(JSON_DEPTH_LIMIT - 1) + '{}' + '}'.repeat(JSON_DEPTH_LIMIT - 1));
    expect(atLimit.statusCode).toBe(200);
    expect(upstream.seen.length).toBe(before + 1);
    expect(jsonDepthExceeds(Buffer.from('{"a":"[[[[[[["}'), 2)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from('{"a":"\\"[[[","b":[[1]]}'), 2)).toBe(true);
  });

  it('refuses __proto__ and constructor.prototype keys (prototype pollution) with a 400', async () => {
    for (const body of ['{"__proto__":{"admin":true}}', '{"a":{"constructor":{"prototype":{"admin":true}}}}', '[{"x":1,"__proto__":null}]']) {
      const res = await post(body);
      expect(res.statusCode, body).toBe(400);
      expect(res.json().message).toBe(BODY_MESSAGES.forbiddenKey);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('answers malformed, empty and oversized JSON in clear words (400 / 413)', async () => {
    const malformed = await post('{"unterminated": ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: BODY_MESSAGES.notJson, code: 'BAD_REQUEST' });
    const empty = await post('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(BODY_MESSAGES.empty);
    const large = await post(JSON.stringify({ question: 'x'.repeat(JSON_BODY_LIMIT) }), '/api/questions');
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ message: BODY_MESSAGES.tooLarge, code: 'PAYLOAD_TOO_LARGE' });
    // The webhook's raw body has its own, larger limit (a provider's event may pass 64 KB).
    const event = await post(JSON.stringify({ data: 'x'.repeat(200_000) }), '/api/payments/webhook');
    expect(event.statusCode).toBe(200);
    const nul = await post('{"question":"a\u0000b"}', '/api/questions');
    expect(nul.statusCode).toBeLessThan(500);
  });

  it('validates a declared call at the edge with the contract message, before it reaches the service', async () => {
    const before = upstream.seen.length;
    const res = await post('[1,2,3]', '/api/questions');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('BAD_REQUEST');
    const notAnObject = await post('"just a string"', '/api/users/login');
    expect(notAnObject.statusCode).toBe(400);
    expect(notAnObject.json().message).toBe('The request body must be a JSON object.');
    expect(upstream.seen.length).toBe(before);
    // No body at all (a POST with nothing to say, as the web app finalizes a payment) still goes through.
    const none = await bff.inject({ method: 'POST', url: '/api/payments/process/q1/finalize-payment', headers: { authorization: `Bearer ${await signedToken()}` } });
    expect(none.statusCode).toBe(200);
    expect(upstream.seen.length).toBe(before + 1);
  });

  it('refuses an upload without a multipart boundary, and streams a well-formed one through', async () => {
    const token = 'Bearer ' + (await signedToken());
    const none = await bff.inject({ method: 'POST', url: '/api/users/avatar', headers: { authorization: token, 'content-type': 'multipart/form-data' }, payload: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(BODY_MESSAGES.notMultipart);
    const form = '--b1\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n--b1--\r\n';
    const ok = await bff.inject({ method: 'POST', url: '/api/users/avatar', headers: { authorization: token, 'content-type': 'multipart/form-data; boundary=b1' }, payload: form });
    expect(ok.statusCode).toBe(200);
    expect(upstream.seen.at(-1)!.raw).toBe(form);
    // Cut short (no closing boundary): the service never gets it as a whole upload, the client gets a 400 in words.
    const before = upstream.seen.length;
    const cut = await bff.inject({ method: 'POST', url: '/api/users/avatar', headers: { authorization: token, 'content-type': 'multipart/form-data; boundary=b1' }, payload: form.slice(0, 90) });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toBe(BODY_MESSAGES.truncatedMultipart);
    expect(upstream.seen.length).toBe(before);
    // Big uploads stream through whole (only the last bytes are held back until the end).
    const big = `--b1\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\n${'x'.repeat(300_000)}\r\n--b1--`;
    const whole = await bff.inject({ method: 'POST', url: '/api/users/avatar', headers: { authorization: token, 'content-type': 'multipart/form-data; boundary=b1' }, payload: big });
    expect(whole.statusCode).toBe(200);
    expect(upstream.seen.at(-1)!.raw).toBe(big);
  });
});

describe('BFF edge: a client that goes away', () => {
  it('mid-upload ends the upstream call (the service is not left waiting for the rest), and a JSON call runs to its end', async () => {
    // A service that reads what comes and never answers an upload: only the BFF cutting the call ends it.
    const upstreamCalls: { url: string; ended: Promise<'complete' | 'cut'> }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const ended = new Promise<'complete' | 'cut'>((resolve) => {
        req.on('end', () => resolve('complete'));
        req.on('close', () => resolve(req.complete ? 'complete' : 'cut'));
        req.resume();
      });
      upstreamCalls.push({ url: req.url ?? '', ended });
      if (req.url?.startsWith('/api/questions')) void ended.then(() => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'), 50));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const bff = await buildBff({ log, upstreams: { identity: url, questions: url }, jwt, publicOrigin: ORIGIN });
    const { port } = new URL(await bff.listen({ port: 0, host: '127.0.0.1' }));
    const send = (head: string, body: string) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(head + body);
          // Gone before the rest of the body (or the answer) comes.
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', () => resolve());
        socket.on('error', () => undefined);
      });
    try {
      const token = await signedToken();
      const part = '--b1\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG';
      await send(
        `POST /api/users/avatar HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: multipart/form-data; boundary=b1\r\ncontent-length: 100000\r\n\r\n`,
        part,
      );
      await expect.poll(() => upstreamCalls.length).toBe(1);
      expect(await upstreamCalls[0]!.ended).toBe('cut');
      // A JSON body is read whole before it is forwarded: the service gets all of it even though the client left.
      const json = '{"question":"Still there?"}';
      await send(`POST /api/questions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\n\r\n`, json);
      await expect.poll(() => upstreamCalls.length).toBe(2);
      expect(await upstreamCalls[1]!.ended).toBe('complete');
    } finally {
      await bff.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

/** An access token the BFF accepts (signed with the test key pair, as identity signs them). */
async function signedToken(): Promise<string> {
  const app = Fastify();
  await registerJwt(app, { ...jwt, privateKey: keys.privateKey });
  await app.ready();
  const token = signAccessToken(app, { typ: 'access', sub: 'user-1', sid: 'session-1' } as Parameters<typeof signAccessToken>[1]);
  await app.close();
  return token;
}

describe('BFF edge: headers', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let bff: FastifyInstance;
  let behindProxy: FastifyInstance;
  beforeAll(async () => {
    upstream = await startUpstream();
    const url = upstream.url;
    bff = await buildBff({ log, upstreams: { identity: url, questions: url }, jwt, publicOrigin: ORIGIN });
    behindProxy = await buildBff({ log, upstreams: { identity: url }, jwt, publicOrigin: ORIGIN, trustProxy: true });
  });
  afterAll(async () => {
    await bff.close();
    await behindProxy.close();
    await upstream.app.close();
  });

  it('marks authenticated JSON answers and token answers no-store; public answers keep their own caching', async () => {
    const token = await signedToken();
    const own = await bff.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: `Bearer ${token}` } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('no-store');
    const withToken = await bff.inject({ method: 'GET', url: '/api/users/public/ada', headers: { authorization: `Bearer ${token}` } });
    expect(withToken.headers['cache-control']).toBe('no-store');
    const refused = await bff.inject({ method: 'GET', url: '/api/users/profile', headers: { authorization: 'Bearer forged' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    const login = await bff.inject({ method: 'POST', url: '/api/users/login', payload: { email: 'a@b.c', password: 'p' } });
    expect(login.headers['cache-control']).toBe('no-store');
    const anonymous = await bff.inject({ method: 'GET', url: '/api/users/public/ada' });
    expect(anonymous.headers['cache-control']).toBe('public, max-age=60');
  });

  it('sends HSTS only when the request came over HTTPS (a trusted proxy says so), and a Permissions-Policy always', async () => {
    const plain = await bff.inject({ method: 'GET', url: '/api/users/public/ada' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(plain.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
    // Not trusted: a client cannot claim HTTPS.
    const claimed = await bff.inject({ method: 'GET', url: '/api/users/public/ada', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    const proxied = await behindProxy.inject({ method: 'GET', url: '/api/users/public/ada', headers: { 'x-forwarded-proto': 'https' } });
    expect(proxied.headers['strict-transport-security']).toBe(HSTS);
    expect(proxied.headers['permissions-policy']).toContain('camera=()');
    const proxiedPlain = await behindProxy.inject({ method: 'GET', url: '/api/users/public/ada', headers: { 'x-forwarded-proto': 'http' } });
    expect(proxiedPlain.headers['strict-transport-security']).toBeUndefined();
  });
});
