import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, generateJwtKeys } from '@ques/kit';
import { buildBff } from '../app.js';
import { worthCompressing } from '../compression.js';
import { loadWebBuild } from './build.js';
import { cachedNegotiator, negotiateCoding } from './encoding.js';
import { withPublicOrigin } from './html.js';
import { robotsTxt } from './robots.js';

const log = createLogger('bff-web-test', 'silent');
const ORIGIN = 'https://ask.example.test';
const COMPRESS_DIST = fileURLToPath(new URL('../../../web/scripts/compress-dist.mjs', import.meta.url));

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <!--meta:start-->
    <title>Ques</title>
    <link rel="canonical" href="https://ques.app/" />
    <meta property="og:url" content="https://ques.app/" />
    <meta property="og:image" content="https://ques.app/images/og-default.png" />
    <!--meta:end-->
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-def456.css">
  </head>
  <body><div id="root"></div><!-- ${'padding so the shell is worth compressing '.repeat(30)} --></body>
</html>
`;

/** A small build: text files of several kinds (large enough to compress), an image, compressed by the real script. */
function makeDist(): { dir: string; text: Record<string, Buffer> } {
  const dir = mkdtempSync(join(tmpdir(), 'bff-web-dist-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'images'));
  mkdirSync(join(dir, '.vite'));
  const text: Record<string, Buffer> = {
    '/assets/index-abc123.js': Buffer.from(
      `export const answers = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `answer ${i}`))};\n`,
    ),
    '/assets/index-def456.css': Buffer.from('.card { color: #1a140f; padding: 4px; }\n'.repeat(80)),
    '/favicon.svg': Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg">${'<circle r="1"/>'.repeat(100)}</svg>`,
    ),
    '/assets/data-abc.json': Buffer.from(
      JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ i, name: `n${i}` })) }),
    ),
  };
  writeFileSync(join(dir, 'index.html'), SHELL);
  for (const [path, bytes] of Object.entries(text)) writeFileSync(join(dir, path), bytes);
  writeFileSync(join(dir, 'images', 'pixel.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
  writeFileSync(join(dir, '.vite', 'manifest.json'), '{}');
  execFileSync(process.execPath, [COMPRESS_DIST, dir], { stdio: 'ignore' });
  return { dir, text };
}

/** A stand-in service: JSON big and small, an event stream, and a raw route recording the exact bytes it got. */
async function startUpstream() {
  const seen: { body: Buffer; headers: Record<string, unknown> }[] = [];
  const app = Fastify();
  const big = Array.from({ length: 60 }, (_, i) => ({
    _id: `q${i}`,
    question: `Question ${i}?`,
    answer: `Answer number ${i}.`,
  }));
  app.get<{ Querystring: { size?: string } }>('/api/questions', async (request, reply) => {
    if (request.query.size === 'small') return [{ _id: 'q1' }];
    if (request.query.size === 'events')
      return reply.type('text/event-stream').send(`data: ${'x'.repeat(4000)}\n\n`);
    return big;
  });
  // The status page's JSON, as questions answers it (issue 33): the BFF passes its no-store and noindex on.
  app.get('/api/question-status/:token', async (_request, reply) =>
    reply.headers({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' }).send({ status: 'pending' }),
  );
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post('/api/payments/webhook', async (request) => {
      seen.push({ body: request.body as Buffer, headers: request.headers });
      return { received: true };
    });
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url, seen, big };
}

describe('content negotiation, origin and robots (pure)', () => {
  it('picks brotli over gzip, honours q-values and *, and sends the original when nothing fits', () => {
    expect(negotiateCoding('gzip, deflate, br, zstd')).toBe('br');
    expect(negotiateCoding('gzip')).toBe('gzip');
    expect(negotiateCoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiateCoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateCoding('*')).toBe('br');
    expect(negotiateCoding('*;q=0, identity')).toBeNull();
    expect(negotiateCoding('deflate')).toBeNull();
    expect(negotiateCoding(undefined)).toBeNull();
    expect(negotiateCoding('x-gzip')).toBe('gzip');
    const cached = cachedNegotiator(2);
    for (const header of ['br', 'gzip', 'identity', 'br'])
      expect(cached(header)).toBe(negotiateCoding(header));
  });

  it('rewrites the build origin in the shell to the configured public origin, and only that', () => {
    const html = withPublicOrigin(SHELL, `${ORIGIN}/`);
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/" />`);
    expect(html).toContain(`<meta property="og:url" content="${ORIGIN}/" />`);
    expect(html).toContain(`content="${ORIGIN}/images/og-default.png"`);
    expect(html).not.toContain('ques.app');
    expect(html.replaceAll(ORIGIN, 'https://ques.app')).toBe(SHELL);
    expect(withPublicOrigin('<title>no canonical</title>', ORIGIN)).toBe('<title>no canonical</title>');
  });

  it('robots.txt allows the public pages, keeps crawlers out of /admin, /api and /pay, and names the sitemap', () => {
    const robots = robotsTxt(`${ORIGIN}/`);
    expect(robots.split('\n')).toEqual(
      expect.arrayContaining([
        'User-agent: *',
        'Allow: /',
        'Disallow: /admin',
        'Disallow: /api/',
        'Disallow: /pay/',
        'Disallow: /q/',
        `Sitemap: ${ORIGIN}/sitemap.xml`,
      ]),
    );
  });

  it('compresses relayed JSON and HTML of unknown or sufficient size, never event streams, encoded or empty bodies', () => {
    const json = {
      method: 'GET',
      statusCode: 200,
      contentType: 'application/json; charset=utf-8',
      contentLength: '5000',
      contentEncoding: undefined,
    };
    expect(worthCompressing(json)).toBe(true);
    expect(worthCompressing({ ...json, contentLength: undefined })).toBe(true);
    expect(worthCompressing({ ...json, contentType: 'text/html; charset=utf-8' })).toBe(true);
    expect(worthCompressing({ ...json, contentType: 'application/problem+json' })).toBe(true);
    expect(worthCompressing({ ...json, contentLength: '900' })).toBe(false);
    expect(worthCompressing({ ...json, contentType: 'text/event-stream' })).toBe(false);
    expect(worthCompressing({ ...json, contentType: 'image/webp' })).toBe(false);
    expect(worthCompressing({ ...json, contentEncoding: 'gzip' })).toBe(false);
    expect(worthCompressing({ ...json, statusCode: 304 })).toBe(false);
    expect(worthCompressing({ ...json, method: 'HEAD' })).toBe(false);
  });
});

describe('the web app and the API through the BFF', () => {
  let dist: ReturnType<typeof makeDist>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let bff: FastifyInstance;

  beforeAll(async () => {
    dist = makeDist();
    upstream = await startUpstream();
    const keys = generateJwtKeys();
    bff = await buildBff({
      log,
      upstreams: { identity: upstream.url, questions: upstream.url, payments: upstream.url },
      jwt: { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' },
      publicOrigin: ORIGIN,
      webDist: dist.dir,
    });
  });
  afterAll(async () => {
    await bff?.close();
    await upstream?.app.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    bff.inject({ method: 'GET', url, headers });

  it('sends each text asset as brotli or gzip when asked, decoding to the original bytes, with Vary and its caching', async () => {
    for (const [path, original] of Object.entries(dist.text)) {
      const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.statusCode, path).toBe(200);
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(br.headers.vary, path).toBe('Accept-Encoding');
      expect(br.rawPayload.length, path).toBeLessThan(original.length);
      expect(brotliDecompressSync(br.rawPayload).equals(original), path).toBe(true);

      const gz = await get(path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gz.headers.vary, path).toBe('Accept-Encoding');
      expect(gunzipSync(gz.rawPayload).equals(original), path).toBe(true);

      const plain = await get(path);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.headers.vary, path).toBe('Accept-Encoding');
      expect(plain.rawPayload.equals(original), path).toBe(true);

      for (const res of [br, gz, plain]) {
        expect(res.headers['cache-control'], path).toBe(
          path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        expect(res.headers['content-type'], path).toBe(plain.headers['content-type']);
      }
      // Each encoding is its own representation: its own ETag.
      expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size, path).toBe(3);
    }
    expect((await get('/assets/index-abc123.js')).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await get('/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
  });

  it('answers 304 to a matching If-None-Match, and HEAD with the headers only', async () => {
    const first = await get('/assets/index-def456.css', { 'accept-encoding': 'br' });
    const again = await get('/assets/index-def456.css', {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    // A gzip ETag does not validate the brotli representation.
    const gz = await get('/assets/index-def456.css', { 'accept-encoding': 'gzip' });
    expect(
      (
        await get('/assets/index-def456.css', {
          'accept-encoding': 'br',
          'if-none-match': String(gz.headers.etag),
        })
      ).statusCode,
    ).toBe(200);
    const head = await bff.inject({
      method: 'HEAD',
      url: '/assets/index-def456.css',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.rawPayload.length).toBe(0);
  });

  it('sends images as they are, and never serves the build folder’s tool files', async () => {
    const png = await get('/images/pixel.png', { 'accept-encoding': 'br, gzip' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload.equals(readFileSync(join(dist.dir, 'images', 'pixel.png')))).toBe(true);
    const manifest = await get('/.vite/manifest.json');
    expect(manifest.headers['content-type']).toMatch(/^text\/html/);
    expect(manifest.body).not.toBe('{}');
  });

  it('serves the app shell with canonical and og:url on the public origin, for / and every client route, compressed', async () => {
    for (const path of ['/', '/index.html', '/login', '/admin/questions-asked?x=1']) {
      const plain = await get(path);
      expect(plain.statusCode, path).toBe(200);
      expect(plain.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(plain.headers['cache-control'], path).toBe('no-cache');
      expect(plain.body, path).toContain(`<link rel="canonical" href="${ORIGIN}/" />`);
      expect(plain.body, path).toContain(`<meta property="og:url" content="${ORIGIN}/" />`);
      expect(plain.body, path).not.toContain('https://ques.app');
      const br = await get(path, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(brotliDecompressSync(br.rawPayload).toString(), path).toBe(plain.body);
    }
  });

  it('a status page /q/{token} and its JSON: no-store and noindex, as a header and a robots meta (issue 33 finding 6)', async () => {
    const page = await get('/q/abcdefghijklmnopqrstuvwxyz012345', { 'accept-encoding': 'br' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.body).toContain(`<link rel="canonical" href="${ORIGIN}/" />`);
    const json = await get('/api/question-status/abcdefghijklmnopqrstuvwxyz012345');
    expect([json.statusCode, json.headers['cache-control'], json.headers['x-robots-tag']]).toEqual([200, 'no-store', 'noindex, nofollow']);
    // Other client routes keep the plain shell.
    expect((await get('/login')).body).not.toContain('name="robots"');
  });

  it('lists the text files a build left without compressed copies, and has nothing to list for a compressed build', async () => {
    expect((await loadWebBuild(dist.dir, { publicOrigin: ORIGIN }))!.uncompressed).toEqual([]);
    const raw = mkdtempSync(join(tmpdir(), 'bff-web-raw-'));
    mkdirSync(join(raw, 'assets'));
    writeFileSync(join(raw, 'index.html'), SHELL);
    writeFileSync(join(raw, 'assets', 'index-abc123.js'), dist.text['/assets/index-abc123.js']!);
    writeFileSync(join(raw, 'assets', 'tiny-abc.js'), 'export {};');
    const build = (await loadWebBuild(raw, { publicOrigin: ORIGIN }))!;
    expect(build.uncompressed).toEqual(['/assets/index-abc123.js']);
    // Still served, as the original bytes.
    expect(build.files.get('/assets/index-abc123.js')!.br).toBeUndefined();
    expect(await loadWebBuild(join(raw, 'assets'), { publicOrigin: ORIGIN })).toBeNull();
  });

  it('answers a missing hashed chunk and an unknown /api call with 404, not the HTML shell', async () => {
    const chunk = await get('/assets/index-old999.js');
    expect(chunk.statusCode).toBe(404);
    expect(chunk.headers['content-type']).toMatch(/^application\/json/);
    expect((await get('/api/nothing-here')).statusCode).toBe(404);
  });

  it('serves robots.txt as text, not the app', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(robotsTxt(ORIGIN));
    expect(res.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });

  it('compresses an API JSON response over the threshold when asked, and only then', async () => {
    const original = Buffer.from(JSON.stringify(upstream.big));
    expect(original.length).toBeGreaterThan(1024);
    const br = await get('/api/questions', { 'accept-encoding': 'br, gzip' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(upstream.big);
    const gz = await get('/api/questions', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(upstream.big);
    const plain = await get('/api/questions');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.json()).toEqual(upstream.big);
  });

  it('leaves small JSON and event streams uncompressed', async () => {
    const small = await get('/api/questions?size=small', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual([{ _id: 'q1' }]);
    const events = await get('/api/questions?size=events', { 'accept-encoding': 'br, gzip' });
    expect(events.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body.startsWith('data: xxx')).toBe(true);
  });

  it('forwards a raw route’s request body byte for byte, even one marked as compressed', async () => {
    const bytes = gzipSync(Buffer.from('{"id":"evt_1","type":"payment_intent.succeeded"}'));
    const res = await bff.inject({
      method: 'POST',
      url: '/api/payments/webhook',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'stripe-signature': 't=1,v1=abc',
      },
      payload: bytes,
    });
    expect(res.statusCode).toBe(200);
    expect(upstream.seen.at(-1)!.body.equals(bytes)).toBe(true);
  });
});
