import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup } from './test/identity-journey.js';

/*
 * Issue 13, crawlers (docs/adr/0024): robots.txt names the sitemap; /sitemap.xml is an index of sitemap files of
 * public profiles and answered public questions, read page by page from questions' listing calls; hidden answers
 * and deleted people are not in it.
 */
describe('XML sitemap through the BFF on the embedded default', () => {
  let product: EmbeddedProduct;
  let base: string;
  beforeAll(async () => {
    product = await startEmbedded({
      port: 0,
      dataDir: null,
      logLevel: 'silent',
      authRateLimitPerMinute: 1000,
      publicOrigin: 'https://ques.example',
    });
    base = product.url;
  });
  afterAll(async () => product?.stop());

  const curate = async (token: string, question: string, displayOnProfile = true) => {
    const res = await call(
      base,
      'POST',
      '/api/questions',
      { isCurated: true, question, answer: `An answer to ${question}`, tags: [], displayOnProfile, tip: 0 },
      token,
    );
    expect(res.status).toBe(201);
    return res.body._id as string;
  };
  const text = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    return res.text();
  };
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

  it('lists public profiles and answered public questions, pages them, and leaves out hidden answers and deleted people', async () => {
    const ada = await signup(base, 'Ada Lovelace', 'ada.sitemap@example.com');
    const alan = await signup(base, 'Alan Turing', 'alan.sitemap@example.com');
    const shown = await curate(ada.token, 'What is a Bernoulli number?');
    const hidden = await curate(ada.token, 'A private note?', false);
    const alans = await curate(alan.token, 'Can machines think?');

    // Absolute URLs are on the configured public origin, whatever address the request came to.
    const origin = /^Sitemap: (\S+)\/sitemap\.xml$/m.exec(await (await fetch(`${base}/robots.txt`)).text())?.[1];
    expect(origin).toBe('https://ques.example');
    const index = locs(await text('/sitemap.xml'));
    expect(index).toEqual([`${origin}/sitemap/profiles.xml`, `${origin}/sitemap/answers.xml`]);

    const profiles = locs(await text('/sitemap/profiles.xml'));
    expect(profiles).toEqual(expect.arrayContaining([`${origin}/ask/${ada.username}`, `${origin}/ask/${alan.username}`]));
    const answers = locs(await text('/sitemap/answers.xml'));
    expect(answers).toContain(`${origin}/ask/${ada.username}/question/${shown}/what-is-a-bernoulli-number`);
    expect(answers).toContain(`${origin}/ask/${alan.username}/question/${alans}/can-machines-think`);
    expect(answers.some((loc) => loc.includes(hidden))).toBe(false);

    // The listing is keyset-paged: one entry a page, every entry once, in order.
    const service = product.services.questions.url;
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(service, 'GET', `/api/sitemap/answers?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      seen.push(res.body[0].id as string);
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    expect(seen).toEqual([shown, alans].sort());
    expect((await call(service, 'GET', '/api/sitemap/answers?cursor=%%%')).status).toBe(400);
    expect((await call(service, 'GET', '/api/sitemap/profiles?limit=0')).status).toBe(400);
    // Unknown sitemap files are 404, never the app's HTML.
    expect((await fetch(`${base}/sitemap/other.xml`)).status).toBe(404);

    // A deleted person leaves the listings (their sitemap files are cached a few minutes; the listing is not).
    expect((await call(base, 'DELETE', `/api/users/profile/${alan.id}`, undefined, alan.token)).status).toBe(200);
    await expect
      .poll(async () => (await call(service, 'GET', '/api/sitemap/profiles')).body.map((p: { username: string }) => p.username), { timeout: 10_000 })
      .not.toContain(alan.username);
    await expect
      .poll(async () => (await call(service, 'GET', '/api/sitemap/answers')).body.map((a: { id: string }) => a.id), { timeout: 10_000 })
      .toEqual([shown]);
  });

  // Issue 28: a mistyped or stale link gets the designed not-found page with a 404, server-rendered, never a raw error.
  it('answers an unknown profile, and an unknown, hidden or malformed answer, with 404 and the designed not-found page', async () => {
    const grace = await signup(base, 'Grace Hopper', 'grace.not-found@example.com');
    const hidden = await curate(grace.token, 'A note to myself?', false);
    for (const path of [
      '/ask/nobody-here',
      `/ask/${grace.username}/question/${randomUUID()}`,
      `/ask/${grace.username}/question/${hidden}/a-note-to-myself`,
      `/ask/${grace.username}/question/not-an-id`,
    ]) {
      const res = await fetch(`${base}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html, path).toContain('<h1 class="page__title">Page not found</h1>');
      expect(html, path).toContain('<title>Page not found — Ques</title>');
      expect(html, path).toContain('Go to the home page');
      expect(html, path).not.toMatch(/User not found|Error:|not available|Loading/);
    }
    // The real profile next to them is there.
    expect((await fetch(`${base}/ask/${grace.username}`)).status).toBe(200);
  });

  it('drops a hidden answer from /sitemap/answers.xml within 5 s, and tells proxies to revalidate (issue 33 finding 5)', async () => {
    const grace = await signup(base, 'Grace Hopper', 'grace.sitemap@example.com');
    const id = await curate(grace.token, 'What is a compiler?');
    const listed = async () => locs(await text('/sitemap/answers.xml')).some((loc) => loc.includes(id));
    await expect.poll(listed, { timeout: 10_000 }).toBe(true);
    const res = await fetch(`${base}/sitemap/answers.xml`);
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    await res.body?.cancel();
    const hidden = await call(base, 'PATCH', `/api/questions/${id}`, { displayOnProfile: false }, grace.token);
    expect(hidden.status).toBe(200);
    const since = Date.now();
    await expect.poll(listed, { timeout: 5_000, interval: 100 }).toBe(false);
    expect(Date.now() - since).toBeLessThan(5_000);
  });
});
