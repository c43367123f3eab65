import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES, type ApiRoute } from '@ques/bff';
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
type Rand = () => number;
const pick = <T,>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/**
 * Requests per run. `npm test` sends 3,000 (about 28 per route, each body shape about 100 times); the issue 12 run
 * ("at least 10,000 seeded malformed requests across every route") is `npm run fuzz -w @ques/launcher`
 * (FUZZ_REQUESTS=10000), part of the root `npm run chaos` (ADR 0044). Both use the same seed unless FUZZ_SEED says
 * otherwise.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
/** Requests in flight at once. */
const CONCURRENCY = 8;

const FIELDS = ['question', 'detail', 'answer', 'tags', 'tip', 'email', 'password', 'name', 'bio', 'token', 'refreshToken', 'toUserId', 'toUsername',
  'askedName', 'askedEmail', 'agreedToTerms', 'isCurated', 'displayOnProfile', 'deletedByReceiver', 'skipNotify', 'newPassword', 'brandColorMain',
  'tipOptions', 'tippingEnabled', 'country', 'donationAmount', 'questionData', 'userId', 'category', 'title', 'description', 'captchaToken',
  'username', 'source', 'replierName', 'avatar', '__proto__', 'constructor', 'prototype'];
const STRINGS = ['💥', '\u0000', 'a\u0000b', '<script>alert(1)</script>', "'; DROP TABLE users; --", '../../etc/passwd', '%00', '#GGGGGG', '\uD800', '\uFEFF',
  'guest', '$5', 'Custom', '-1', '1e309', 'NaN', 'true', 'null', '{}', '[]', '\r\n\r\n', '\\', '"'];

function randomValue(rand: Rand, depth = 0): unknown {
  switch (Math.floor(rand() * (depth > 2 ? 9 : 12))) {
    case 0: return null;
    case 1: return rand() < 0.5;
    case 2: return Math.floor(rand() * 2 ** 53) * (rand() < 0.5 ? -1 : 1);
    case 3: return pick(rand, [0, -1, 0.5, 1e308, -0, Number.MAX_SAFE_INTEGER, 5, 1, 100_000]);
    case 4: return '';
    case 5: return 'x'.repeat(Math.floor(rand() * 20_000));
    case 6: return pick(rand, STRINGS);
    case 7: return `${Math.floor(rand() * 1e6)}@example.com`;
    case 8: return randomUUID();
    case 9: return Array.from({ length: Math.floor(rand() * 5) }, () => randomValue(rand, depth + 1));
    default: return randomObject(rand, depth + 1);
  }
}

function randomObject(rand: Rand, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 6); i > 0; i -= 1) out[pick(rand, FIELDS)] = randomValue(rand, depth);
  return out;
}

/** A body a client might plausibly send (the spec's fields), then one field turned into something else. */
function nearlyValid(rand: Rand): Record<string, unknown> {
  const body: Record<string, unknown> = {
    question: 'Why?', detail: 'Because', tip: 0, toUserId: randomUUID(), askedName: 'Fuzz', askedEmail: 'f@example.com', agreedToTerms: true,
    answer: 'Yes', tags: ['a'], displayOnProfile: true, email: 'f@example.com', password: 'a long enough password', name: 'Fuzz',
    tipOptions: [{ value: '$0' }], tippingEnabled: false, donationAmount: 5, questionData: { question: 'Why?' }, title: 't', description: 'd',
    category: 'Other', country: 'CA', refreshToken: 'r', newPassword: 'another long password',
  };
  const keys = Object.keys(body);
  for (let i = 1 + Math.floor(rand() * 3); i > 0; i -= 1) body[pick(rand, keys)] = randomValue(rand, 2);
  return body;
}

/** encodeURIComponent, except that a lone surrogate (which it refuses) goes as the bytes of one. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

const nested = (open: string, close: string, inner: string, depth: number) => open.repeat(depth) + inner + close.repeat(depth);

interface Case {
  shape: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** One hostile body of a random shape (for a route that takes one). */
function hostileBody(rand: Rand): Case {
  const json = (shape: string, body: string | Uint8Array): Case => ({ shape, headers: { 'content-type': 'application/json' }, body });
  const boundary = `----fuzz${Math.floor(rand() * 1e9)}`;
  switch (Math.floor(rand() * 16)) {
    case 0: return json('random object', JSON.stringify(randomObject(rand)));
    case 1: return json('wrong type', JSON.stringify(randomValue(rand)));
    case 2: return json('nearly valid', JSON.stringify(nearlyValid(rand)));
    case 3: return json('nested arrays', nested('[', ']', '1', 1 + Math.floor(rand() * 20_000)));
    case 4: return json('nested objects', nested('{"a":', '}', '{}', 1 + Math.floor(rand() * 5_000)));
    case 5: return json('huge', JSON.stringify({ question: 'x'.repeat(60_000 + Math.floor(rand() * 100_000)) }));
    case 6: return json('NUL bytes', JSON.stringify({ ...nearlyValid(rand), [pick(rand, FIELDS)]: `a\u0000b${'\u0000'.repeat(Math.floor(rand() * 10))}` }));
    case 7: return json('invalid UTF-8', Buffer.concat([Buffer.from('{"question":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from('"}')]));
    case 8: return json('__proto__', pick(rand, [
      '{"__proto__":{"admin":true}}',
      '{"a":{"constructor":{"prototype":{"admin":true}}}}',
      '{"question":"q","__proto__":{"toString":1}}',
      '[{"__proto__":null}]',
      '{"constructor":{"prototype":null}}',
      '{"\\u005f_proto__":{"x":1}}',
    ]));
    case 9: return json('malformed JSON', pick(rand, ['{"unterminated": ', '{"a":1}}', '\uFEFF{"a":1}', '{a:1}', "{'a':1}", 'NaN', '{"a":01}', '[1,]', '{"a":"\\x"}', '"\\ud800"', '{"a":1}garbage', '   ']));
    case 10: return json('empty', '');
    case 11: return { shape: 'wrong content type', headers: { 'content-type': pick(rand, ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json-patch+json', 'image/png', 'application/octet-stream', '*/*', 'application/json; charset=utf-16', ';;;']) }, body: pick(rand, ['plain text', 'a=1&b=2', '<a/>', '\u0000\u0001', JSON.stringify(nearlyValid(rand))]) };
    case 12: return { shape: 'multipart without boundary', headers: { 'content-type': pick(rand, ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="', 'multipart/mixed']) }, body: `--x\r\nContent-Disposition: form-data; name="avatar"\r\n\r\nabc\r\n--x--` };
    case 13: return { shape: 'multipart truncated', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n`.slice(0, 20 + Math.floor(rand() * 100)) };
    case 14: return { shape: 'multipart malformed', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: pick(rand, [
      `--${boundary}\r\n\r\n--${boundary}--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nx\r\n--${boundary}--\r\n`,
      `--wrong\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\nx\r\n--wrong--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="${'a'.repeat(5000)}.png"\r\nContent-Type: image/png\r\n\r\nnot an image\r\n--${boundary}--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${'\u0000'.repeat(100)}\r\n--${boundary}--\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n--${boundary}--\r\n`,
    ]) };
    default: return json('nearly valid with prototype keys', JSON.stringify(nearlyValid(rand)).replace(/^\{/, '{"__proto__":{"isAdmin":true},'));
  }
}

/** A path parameter: an id, junk, very long, NUL, traversal, percent-garbage. */
function hostileParam(rand: Rand): string {
  return pick(rand, [
    () => randomUUID(),
    () => encode(String(randomValue(rand, 3)).slice(0, 50)) || 'x',
    () => 'a'.repeat(2_000 + Math.floor(rand() * 6_000)),
    () => '%00',
    () => '..%2F..%2Fetc%2Fpasswd',
    () => '%E0%A4%A',
    () => '%F0%9F%92%A5',
    () => '__proto__',
    () => 'constructor',
    () => '-1',
    () => '%20',
  ])();
}

function hostileQuery(rand: Rand): string {
  if (rand() < 0.5) return '';
  return '?' + pick(rand, [
    `userId=${encode(String(randomValue(rand, 3)).slice(0, 80))}&username=%F0%9F&limit=-1&cursor=zz`,
    'username=ada&role=receiver&limit=1000000',
    'role=nobody',
    'limit=abc&cursor=%00',
    '__proto__[admin]=1&constructor[prototype][x]=1',
    'userId=1&userId=2&role=receiver&role=asker',
    `cursor=${'z'.repeat(5_000)}`,
    'username=%E0%A4%A',
    'limit=1.5&username=ada',
  ]);
}

/**
 * Hostile requests against every route the BFF forwards, signed in and not: nested, huge, wrong types, NUL bytes,
 * prototype keys, malformed JSON and multipart, junk paths and queries. Nothing may answer 5xx, and the product must
 * still work afterwards. FUZZ_SEED picks the run (random explores: the seed is printed with any failure).
 */
describe('fuzzed requests against every route (embedded default)', () => {
  let product: EmbeddedProduct;
  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1_000_000 });
  });
  afterAll(async () => product?.stop());

  it(`answers none of ${REQUESTS} hostile requests with a 5xx, and lives`, async () => {
    const seed = process.env.FUZZ_SEED === 'random' ? Date.now() % 1_000_000 : Number(process.env.FUZZ_SEED ?? 20_261_122);
    const rand = prng(seed);
    const signup = await call(product.url, 'POST', '/api/users', { name: 'Fuzz Owner', email: 'fuzz@example.com', password: 'a long enough password' });
    expect(signup.status).toBe(201);
    const token = signup.body.token as string;
    const ownId = String((signup.body.user as { _id: string })._id);
    const routes: ApiRoute[] = API_ROUTES;
    const failures: string[] = [];
    const byShape = new Map<string, number>();
    const byStatus = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const msPerRoute = new Map<string, number>();
    let sent = 0;
    const started = performance.now();

    const next = (): (() => Promise<void>) | null => {
      if (sent >= REQUESTS) return null;
      // Round robin over the routes, so every route gets its share whatever the count.
      const route = routes[sent % routes.length]!;
      sent += 1;
      const path = route.url.replace(/:(\w+)/g, (_m, name: string) => (name === 'id' && route.url.startsWith('/api/users/profile') && rand() < 0.1 ? ownId : hostileParam(rand)));
      const query = hostileQuery(rand);
      const headers: Record<string, string> = {};
      const who = rand();
      if (who < 0.5) headers.authorization = `Bearer ${token}`;
      else if (who < 0.6) headers.authorization = pick(rand, ['Bearer abc.def.ghi', 'Bearer ', 'Basic Zm9vOmJhcg==', `Bearer ${token}x`, 'Bearer null', `Bearer ${'a'.repeat(4000)}`]);
      if (rand() < 0.2) headers['idempotency-key'] = pick(rand, [randomUUID(), '', 'x'.repeat(300), 'key with spaces', 'same-key']);
      let body: Case | undefined;
      if (route.method !== 'GET') body = hostileBody(rand);
      const shape = body?.shape ?? 'no body';
      Object.assign(headers, body?.headers ?? {});
      const key = `${route.method} ${route.url}`;
      return async () => {
        let status: number;
        const t0 = performance.now();
        try {
          const res = await fetch(`${product.url}${path}${query}`, { method: route.method, headers, body: body?.body as BodyInit | undefined, redirect: 'manual' });
          await res.arrayBuffer();
          status = res.status;
        } catch (err) {
          status = 599;
          failures.push(`${key} [${shape}] ${path.slice(0, 120)}${query.slice(0, 80)} → network error ${(err as Error).message}`);
        }
        msPerRoute.set(key, (msPerRoute.get(key) ?? 0) + performance.now() - t0);
        byShape.set(shape, (byShape.get(shape) ?? 0) + 1);
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        perRoute.set(key, (perRoute.get(key) ?? 0) + 1);
        if (status >= 500 && status !== 599)
          failures.push(`${key} [${shape}] ${path.slice(0, 120)}${query.slice(0, 80)} ${typeof body?.body === 'string' ? body.body.slice(0, 160) : ''} → ${status}`);
      };
    };

    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let job = next(); job; job = next()) await job();
      }),
    );
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(
      `fuzz: ${sent} requests over ${perRoute.size} routes in ${seconds} s (seed ${seed}); statuses ${JSON.stringify(Object.fromEntries([...byStatus].sort()))}; shapes ${JSON.stringify(Object.fromEntries(byShape))}; slowest routes (total ms) ${JSON.stringify(
        [...msPerRoute].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([route, ms]) => `${route} ${Math.round(ms)}`),
      )}`,
    );

    expect(failures.slice(0, 30), `seed ${seed}: ${failures.length} failures`).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    // Every route was hit, each with its share of the run.
    for (const route of routes) expect(perRoute.get(`${route.method} ${route.url}`) ?? 0, `${route.method} ${route.url}`).toBeGreaterThanOrEqual(Math.floor(REQUESTS / routes.length));
    for (const shape of ['nested arrays', 'huge', 'wrong type', 'NUL bytes', '__proto__', 'multipart truncated', 'multipart without boundary', 'malformed JSON'])
      expect(byShape.get(shape) ?? 0, shape).toBeGreaterThan(0);

    // Still alive and well (the fuzzed account may have logged itself out or been deleted: a fresh one proves it).
    const fresh = await call(product.url, 'POST', '/api/users', { name: 'After Fuzz', email: 'after.fuzz@example.com', password: 'a long enough password' });
    expect(fresh.status).toBe(201);
    expect((await call(product.url, 'GET', '/api/users/profile', undefined, fresh.body.token as string)).status).toBe(200);
  }, 600_000);
});
