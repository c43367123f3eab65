import { createServer, get, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, generateJwtKeys } from '@ques/kit';
import { buildBff } from './app.js';
import { helmetHeaders } from './headers.js';
import { BUFFERED_BODY_MAX } from './upstreams.js';

/*
 * How the BFF relays a service's answer (ADR 0035): a body the service declared small is read whole and sent on as the
 * exact bytes with their length; a larger one streams through; errors map as before.
 */

const log = createLogger('bff-test', 'silent');
const ORIGIN = 'https://app.ques.test';

// Bytes no serialiser would write: odd spacing, a key order of their own, an escaped and a raw non-ASCII character,
// and a field the declared response schema does not have. The BFF must not touch them.
const SMALL = Buffer.from('[ {"zeta":1,  "id":"q-1", "question":"Caf\\u00e9 or café?", "notInTheSchema":true} ]\n');
// A page of a list as the services send it: above the plugin's default synchronous size on a two-core host (8 kB),
// within what the relay holds whole.
const PAGE = Buffer.from(JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ id: `q-${i}`, question: `Question ${i} ${'y'.repeat(300)}?` }))));
const BIG = Buffer.from(JSON.stringify(Array.from({ length: 2_000 }, (_, i) => ({ id: `q-${i}`, question: 'x'.repeat(40) }))));

/** A promise and its resolve (Node 20 has no `Promise.withResolvers`). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
let endlessClosed = signal();

/** A stand-in questions service on a real socket, answering by the `username` asked for. */
function startQuestions(): Promise<{ server: Server; url: string }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const username = new URL(req.url ?? '/', 'http://x').searchParams.get('username');
    const json = { 'content-type': 'application/json; charset=utf-8' };
    if (username === 'small') return void res.writeHead(200, { ...json, 'content-length': SMALL.length, 'x-next-cursor': 'c1' }).end(SMALL);
    if (username === 'page') return void res.writeHead(200, { ...json, 'content-length': PAGE.length, 'x-next-cursor': 'c2' }).end(PAGE);
    if (username === 'big') return void res.writeHead(200, { ...json, 'content-length': BIG.length }).end(BIG);
    if (username === 'missing') {
      const body = Buffer.from('{"message":"No such profile.","code":"NOT_FOUND"}');
      return void res.writeHead(404, { ...json, 'content-length': body.length }).end(body);
    }
    if (username === 'endless') {
      // An answer with no length (a stream of events, an export) that the service keeps writing until it is cut.
      res.writeHead(200, { 'content-type': 'text/plain' });
      const timer = setInterval(() => res.write('x'.repeat(1_000)), 5);
      res.on('close', () => {
        clearInterval(timer);
        endlessClosed.resolve();
      });
      return;
    }
    if (username === 'cut') {
      // Declares 1,000 bytes, sends a few, and drops the connection.
      res.writeHead(200, { ...json, 'content-length': 1_000 });
      res.write('[{"id":');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    res.writeHead(500).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })),
  );
}

describe('relaying a service answer', () => {
  let questions: Awaited<ReturnType<typeof startQuestions>>;
  let bff: FastifyInstance;
  const keys = generateJwtKeys();

  beforeAll(async () => {
    questions = await startQuestions();
    bff = await buildBff({
      log,
      upstreams: { questions: questions.url },
      jwt: { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' },
      publicOrigin: ORIGIN,
    });
  });
  afterAll(async () => {
    await bff.close();
    await new Promise((resolve) => questions.server.close(resolve));
  });

  it('passes a small body on byte for byte, with its length (never re-serialised against the schema)', async () => {
    expect(SMALL.length).toBeLessThan(BUFFERED_BODY_MAX);
    const res = await bff.inject({ method: 'GET', url: '/api/questions?username=small&role=receiver' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(SMALL)).toBe(true);
    expect(res.headers['content-length']).toBe(String(SMALL.length));
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-next-cursor']).toBe('c1');
  });

  it('streams a body larger than the limit through, byte for byte', async () => {
    expect(BIG.length).toBeGreaterThan(BUFFERED_BODY_MAX);
    const res = await bff.inject({ method: 'GET', url: '/api/questions?username=big&role=receiver' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(BIG)).toBe(true);
  });

  it('compresses a buffered body in one call: Content-Length of the compressed bytes, br or gzip as accepted (ADR 0043)', async () => {
    expect(PAGE.length).toBeGreaterThan(8 * 1024);
    expect(PAGE.length).toBeLessThan(BUFFERED_BODY_MAX);
    const get = (acceptEncoding: string) =>
      bff.inject({ method: 'GET', url: '/api/questions?username=page&role=receiver', headers: { 'accept-encoding': acceptEncoding } });
    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-length']).toBe(String(br.rawPayload.length));
    expect(br.headers['transfer-encoding']).toBeUndefined();
    expect(br.rawPayload.length).toBeLessThan(PAGE.length / 4);
    expect(brotliDecompressSync(br.rawPayload).equals(PAGE)).toBe(true);
    expect(String(br.headers.vary)).toContain('accept-encoding');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.headers['x-next-cursor']).toBe('c2');

    const gzip = await get('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-length']).toBe(String(gzip.rawPayload.length));
    expect(gunzipSync(gzip.rawPayload).equals(PAGE)).toBe(true);

    // Not accepted at all: the exact bytes, uncompressed, with their length.
    const identity = await get('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.rawPayload.equals(PAGE)).toBe(true);
    expect(identity.headers['content-length']).toBe(String(PAGE.length));
  });

  it('still compresses a body larger than the limit as a stream (no length known in advance)', async () => {
    const res = await bff.inject({ method: 'GET', url: '/api/questions?username=big&role=receiver', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(brotliDecompressSync(res.rawPayload).equals(BIG)).toBe(true);
  });

  it("streams an answer without a length as it comes, and a client gone mid-answer ends the service's call", async () => {
    endlessClosed = signal();
    const url = await bff.listen({ port: 0, host: '127.0.0.1' });
    const received = await new Promise<number>((resolve, reject) => {
      get(`${url}/api/questions?username=endless&role=receiver`, (res) => {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-length']).toBeUndefined();
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // Some of it came through before the end: the client gives up.
          if (bytes >= 5_000) {
            res.destroy();
            resolve(bytes);
          }
        });
      }).on('error', reject);
    });
    expect(received).toBeGreaterThanOrEqual(5_000);
    // Without the relay ending its call, the service would write to the BFF for ever.
    await endlessClosed.promise;
  });

  it("relays the service's error as it is: status, words and code", async () => {
    const res = await bff.inject({ method: 'GET', url: '/api/questions?username=missing&role=receiver' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'No such profile.', code: 'NOT_FOUND' });
  });

  it('answers 503 in words when the service drops the connection before the whole body came', async () => {
    const res = await bff.inject({ method: 'GET', url: '/api/questions?username=cut&role=receiver' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ message: 'Ques is having trouble right now. Please try again in a moment.', code: 'UNAVAILABLE' });
  });

  it("sets helmet's security headers on relayed answers", async () => {
    const res = await bff.inject({ method: 'GET', url: '/api/questions?username=small&role=receiver' });
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('helmetHeaders', () => {
  it("is exactly what helmet's middleware sets on a response, worked out once", () => {
    const options = { contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } }, strictTransportSecurity: false } as const;
    const res = new ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1 } as IncomingMessage);
    helmet(options)({} as IncomingMessage, res, () => undefined);
    const fromHelmet = Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]));
    expect(helmetHeaders(options)).toEqual(fromHelmet);
    expect(Object.keys(fromHelmet).length).toBeGreaterThan(8);
  });
});
