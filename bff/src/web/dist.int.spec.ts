import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, generateJwtKeys } from '@ques/kit';
import { buildBff } from '../app.js';

/*
 * The real build (web/dist, made by `npx turbo run build`), served by the BFF: every text asset the build compressed
 * must reach a browser compressed, decode to the built file, and keep its caching.
 */

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const ORIGIN = 'https://ques.example.test';
const TEXT = /\.(?:js|css|html|svg|json|map|txt|xml|webmanifest)$/;

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.split('/').some((part) => part.startsWith('.')) && !/\.(?:br|gz)$/.test(path));
}

describe('the built web app through the BFF', () => {
  let bff: FastifyInstance;

  beforeAll(async () => {
    if (!existsSync(join(WEB_DIST, 'index.html')))
      throw new Error(
        `The web app is not built (${WEB_DIST}/index.html is missing): run \`npx turbo run build\` first.`,
      );
    const keys = generateJwtKeys();
    bff = await buildBff({
      log: createLogger('bff-dist-test', 'silent'),
      upstreams: { identity: 'http://127.0.0.1:9' },
      jwt: { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' },
      publicOrigin: ORIGIN,
      webDist: WEB_DIST,
    });
  });
  afterAll(async () => bff?.close());

  it('sends every built text asset as brotli and as gzip, decoding to the built bytes, with Vary and immutable caching', async () => {
    const files = builtFiles(WEB_DIST).filter((path) => TEXT.test(path) && path !== 'index.html');
    expect(files.some((path) => path.startsWith('assets/') && path.endsWith('.js'))).toBe(true);
    expect(files.some((path) => path.endsWith('.css'))).toBe(true);
    let compressed = 0;
    for (const path of files) {
      const original = readFileSync(join(WEB_DIST, path));
      for (const [coding, decode] of [
        ['br', brotliDecompressSync],
        ['gzip', gunzipSync],
      ] as const) {
        const res = await bff.inject({
          method: 'GET',
          url: `/${path}`,
          headers: { 'accept-encoding': coding },
        });
        expect(res.statusCode, path).toBe(200);
        expect(res.headers['cache-control'], path).toBe(
          path.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        expect(res.headers.etag, path).toBeTruthy();
        if (!existsSync(join(WEB_DIST, `${path}.${coding === 'br' ? 'br' : 'gz'}`))) {
          // Too small to be worth a compressed copy: the original bytes.
          expect(original.length, path).toBeLessThan(1024);
          expect(res.rawPayload.equals(original), path).toBe(true);
          continue;
        }
        compressed += 1;
        expect(res.headers['content-encoding'], path).toBe(coding);
        expect(res.headers.vary, path).toBe('Accept-Encoding');
        expect(decode(res.rawPayload).equals(original), path).toBe(true);
      }
    }
    expect(compressed).toBeGreaterThan(files.length);
  });

  // The app shell is what client routes get (`/` itself is server-rendered since docs/adr/0024).
  it('sends the shell compressed, with the configured origin in its canonical link', async () => {
    const plain = await bff.inject({ method: 'GET', url: '/login' });
    expect(plain.body).toContain(`<link rel="canonical" href="${ORIGIN}/" />`);
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await bff.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': coding } });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(decode(res.rawPayload).toString()).toBe(plain.body);
    }
  });
});
