import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '@ques/bff';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call } from './test/identity-journey.js';

/** A small seeded PRNG (mulberry32): a failing case can be replayed with the seed it prints. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELDS = ['question', 'detail', 'answer', 'tags', 'tip', 'email', 'password', 'name', 'bio', 'token', 'refreshToken', 'toUserId', 'toUsername',
  'askedName', 'askedEmail', 'agreedToTerms', 'isCurated', 'displayOnProfile', 'deletedByReceiver', 'skipNotify', 'newPassword', 'brandColorMain',
  'tipOptions', 'tippingEnabled', 'country', 'donationAmount', 'questionData', 'userId', 'category', 'title', 'description', 'captchaToken', '__proto__', 'constructor'];

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 8 : 11));
  switch (pick) {
    case 0: return null;
    case 1: return rand() < 0.5;
    case 2: return Math.floor(rand() * 2 ** 53) * (rand() < 0.5 ? -1 : 1);
    case 3: return [0, -1, 0.5, 1e308, -0, Number.MAX_SAFE_INTEGER][Math.floor(rand() * 6)];
    case 4: return '';
    case 5: return 'x'.repeat(Math.floor(rand() * 20_000));
    case 6: return ['💥', '\u0000', '<script>alert(1)</script>', "'; DROP TABLE users; --", '../../etc/passwd', '%00', '#GGGGGG', randomUUID()][Math.floor(rand() * 8)];
    case 7: return `${Math.floor(rand() * 1e6)}@example.com`;
    case 8: return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
    default: return randomObject(rand, depth + 1);
  }
}

function randomObject(rand: () => number, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 6); i > 0; i -= 1) out[FIELDS[Math.floor(rand() * FIELDS.length)]!] = randomValue(rand, depth);
  return out;
}

/**
 * Random and hostile bodies against every /api route of the BFF, signed in and not: nothing may answer 5xx, and
 * the product must still work afterwards.
 */
describe('fuzzed bodies against every /api route (embedded default)', () => {
  let product: EmbeddedProduct;
  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 100_000 });
  });
  afterAll(async () => product?.stop());

  it('never answers 5xx', async () => {
    // A fixed seed keeps CI deterministic; FUZZ_SEED=random explores (and prints the seed of a failure).
    const seed = process.env.FUZZ_SEED === 'random' ? Date.now() % 1_000_000 : Number(process.env.FUZZ_SEED ?? 20_261_121);
    const rand = prng(seed);
    const signup = await call(product.url, 'POST', '/api/users', { name: 'Fuzz Owner', email: 'fuzz@example.com', password: 'a long enough password' });
    const token = signup.body.token as string;
    const failures: string[] = [];
    const routes = API_ROUTES.filter((r) => r.url.startsWith('/api/') && r.url !== '/api/payments/webhook');
    for (const route of routes) {
      for (let i = 0; i < 20; i += 1) {
        const path = route.url.replace(/:(\w+)/g, () => (rand() < 0.5 ? randomUUID() : encodeURIComponent(String(randomValue(rand, 3)).slice(0, 50)) || 'x'));
        const query = rand() < 0.3 ? `?userId=${encodeURIComponent(String(randomValue(rand, 3)).slice(0, 80))}&username=%F0%9F&limit=-1&cursor=zz` : '';
        const headers: Record<string, string> = {};
        if (rand() < 0.6) headers.authorization = `Bearer ${token}`;
        let body: string | undefined;
        if (route.method !== 'GET') {
          const shape = rand();
          if (shape < 0.1) {
            headers['content-type'] = 'application/json';
            body = '{"unterminated": ';
          } else if (shape < 0.15) {
            headers['content-type'] = 'text/plain';
            body = 'plain text';
          } else {
            headers['content-type'] = 'application/json';
            body = JSON.stringify(shape < 0.25 ? randomValue(rand) : randomObject(rand));
          }
        }
        const res = await fetch(`${product.url}${path}${query}`, { method: route.method, headers, body });
        await res.arrayBuffer();
        if (res.status >= 500) failures.push(`${route.method} ${path}${query} ${body?.slice(0, 200) ?? ''} → ${res.status}`);
      }
    }
    expect(failures, `seed ${seed}`).toEqual([]);
    // Still alive and well (the fuzzed token may have logged itself out: a fresh account proves the product works).
    const fresh = await call(product.url, 'POST', '/api/users', { name: 'After Fuzz', email: 'after.fuzz@example.com', password: 'a long enough password' });
    expect(fresh.status).toBe(201);
    expect((await call(product.url, 'GET', '/api/users/profile', undefined, fresh.body.token as string)).status).toBe(200);
  }, 120_000);
});
