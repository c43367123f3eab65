import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED, seedTimedOwner, type SeededOwner } from './test/reach-seed.js';
import { call, signup } from './test/identity-journey.js';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { markArchiveProfile } from '@ques/identity';
import { rebuildProjections } from '@ques/kit';

/*
 * Issue 15 (docs/adr/0029) over HTTP against the embedded product: trust stats from seeded timings (public only once
 * established; the owner always), the Atom feed (valid, exactly the public answers, newest first, ETag/304, updated
 * when an answer changes), share images (PNG 1200×630, named by hash and revalidated, a stale hash redirects) and the 404s:
 * unknown and deleted owners; archive profiles get both.
 */

// A clock that moves only when told: the seeded timings are exact (1 h is 3,600 s, not 3,600 s plus the test's own time).
const T0 = Date.now();
let offset = 0;
const clock = { now: () => new Date(T0 + offset), advance: (ms: number) => void (offset += ms) };
const tag = Date.now().toString(36);

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });
async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers, redirect: 'manual' });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}
const ogImage = (html: string) => /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];

describe('reach: trust stats, Atom feeds and share images', () => {
  let product: EmbeddedProduct;
  let seeded: SeededOwner;
  let base: string;

  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1000, clock: clock.now });
    base = product.url;
    seeded = await seedTimedOwner(base, clock, 'Rosalind Franklin', `rosalind.${tag}@example.com`);
  }, 120_000);
  afterAll(async () => product?.stop());

  it('computes the trust stats from the seeded timings; public only once established, never naming a question', async () => {
    const mine = await call(base, 'GET', '/api/trust-stats', undefined, seeded.owner.token);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      periodDays: 90,
      windowDays: 5,
      established: true,
      figures: { answered: 6, medianAnswerSeconds: SEEDED.medianSeconds, answeredWithinWindow: SEEDED.windowShare, publicAnswers: SEEDED.publicAnswers },
    });
    const pub = await call(base, 'GET', `/api/trust-stats/${seeded.owner.username}`);
    expect(pub.body).toEqual(mine.body);
    expect(pub.text).not.toContain(seeded.privateId);

    // A new owner: "New on Ques" (no figures in public), the owner still sees theirs.
    const fresh = await signup(base, 'Fresh Owner', `fresh.${tag}@example.com`);
    const freshPublic = await call(base, 'GET', `/api/trust-stats/${fresh.username}`);
    expect(freshPublic.body).toMatchObject({ established: false, figures: null });
    expect((await call(base, 'GET', '/api/trust-stats', undefined, fresh.token)).body.figures).toMatchObject({ answered: 0, medianAnswerSeconds: null });
    expect((await call(base, 'GET', '/api/trust-stats/no-such-owner-here')).status).toBe(404);
    expect((await call(base, 'GET', '/api/trust-stats')).status).toBe(401);
  });

  it('rebuilds the trust projection to the same figures', async () => {
    const before = (await call(base, 'GET', '/api/trust-stats', undefined, seeded.owner.token)).body;
    const { store, log } = product.services.questions.ctx;
    await rebuildProjections(store, log);
    expect((await call(base, 'GET', '/api/trust-stats', undefined, seeded.owner.token)).body).toEqual(before);
  });

  it('serves a valid Atom feed of exactly the public answers, newest first, with ETag/Last-Modified, updated on change', async () => {
    const url = `${base}/ask/${seeded.owner.username}/feed.atom`;
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/atom+xml');
    const feed = parseFeed(res.body.toString('utf8'));
    expect(feed.meta.type).toBe('atom');
    expect(feed.title).toContain('Rosalind Franklin');
    expect(feed.items.map((i) => i.id?.replace('urn:uuid:', ''))).toEqual(seeded.publicIds);
    for (const item of feed.items) expect(item.url).toContain(`/ask/${seeded.owner.username}/question/`);
    const xml = res.body.toString('utf8');
    for (const id of [seeded.hiddenId, seeded.privateId, seeded.unansweredId]) expect(xml).not.toContain(id);

    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect((await get(url, { 'if-none-match': etag })).status).toBe(304);

    // The owner hides an answer: the next read is a new feed without it.
    const hide = await call(base, 'PATCH', `/api/questions/${seeded.questions.h3}`, { displayOnProfile: false }, seeded.owner.token);
    expect(hide.status, hide.text).toBe(200);
    const after = await get(url, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(parseFeed(after.body.toString('utf8')).items.map((i) => i.id?.replace('urn:uuid:', ''))).toEqual(
      seeded.publicIds.filter((id) => id !== seeded.questions.h3),
    );
    expect(after.headers.get('etag')).not.toBe(etag);
    // The profile's <head> links it.
    const page = await (await fetch(`${base}/ask/${seeded.owner.username}`)).text();
    expect(page).toContain(`<link rel="alternate" type="application/atom+xml"`);
    expect(page).toContain(`/ask/${seeded.owner.username}/feed.atom`);
  });

  it('serves share images by content hash, revalidated; a stale hash redirects; unknown, unpublished and deleted are 404', async () => {
    const answerPage = await (await fetch(`${base}/ask/${seeded.owner.username}/question/${seeded.questions.d2}`)).text();
    const image = ogImage(answerPage)!;
    expect(image).toMatch(new RegExp(`/share/answer/${seeded.questions.d2}/[0-9a-f]{16}\\.png$`));
    expect(answerPage).toContain(`<meta name="twitter:image" content="${image}"`);
    const png = await get(image.replace(/^https?:\/\/[^/]+/, base));
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    // Never immutable (issue 33): a proxy revalidates, so an old URL cannot keep the old pixels.
    expect(png.headers.get('cache-control')).toBe('public, no-cache');
    expect(pngSize(png.body)).toEqual({ width: 1200, height: 630 });
    const again = await get(image.replace(/^https?:\/\/[^/]+/, base));
    expect(again.body.equals(png.body)).toBe(true);

    const stale = await get(`${base}/share/answer/${seeded.questions.d2}/0000000000000000.png`);
    expect(stale.status).toBe(302);
    expect(stale.headers.get('location')).toBe(new URL(image).pathname);

    const profileImage = ogImage(await (await fetch(`${base}/ask/${seeded.owner.username}`)).text())!;
    expect(profileImage).toMatch(/\/share\/profile\/.+\/[0-9a-f]{16}\.png$/);
    expect(pngSize((await get(profileImage.replace(/^https?:\/\/[^/]+/, base))).body)).toEqual({ width: 1200, height: 630 });

    for (const path of [
      `/share/answer/${seeded.privateId}/0000000000000000.png`,
      `/share/answer/${seeded.hiddenId}/0000000000000000.png`,
      `/share/answer/${seeded.unansweredId}/0000000000000000.png`,
      '/share/answer/00000000-0000-4000-8000-000000000000/0000000000000000.png',
      '/share/profile/no-such-owner-here/0000000000000000.png',
      '/ask/no-such-owner-here/feed.atom',
    ])
      expect((await get(`${base}${path}`)).status, path).toBe(404);
  });

  it('gives archive profiles feeds and images, and a deleted owner none', async () => {
    const archived = await seedTimedOwner(base, clock, 'Archive Person', `archive.${tag}@example.com`);
    await markArchiveProfile(product.services.identity.parts, archived.owner.username, true);
    await new Promise((r) => setTimeout(r, 300));
    expect((await get(`${base}/ask/${archived.owner.username}/feed.atom`)).status).toBe(200);
    const img = ogImage(await (await fetch(`${base}/ask/${archived.owner.username}`)).text())!;
    expect((await get(img.replace(/^https?:\/\/[^/]+/, base))).status).toBe(200);

    const gone = await seedTimedOwner(base, clock, 'Gone Person', `gone.${tag}@example.com`);
    const feedUrl = `${base}/ask/${gone.owner.username}/feed.atom`;
    const answerPage = await (await fetch(`${base}/ask/${gone.owner.username}/question/${gone.questions.h1}`)).text();
    const goneImage = ogImage(answerPage)!.replace(/^https?:\/\/[^/]+/, base);
    expect((await get(feedUrl)).status).toBe(200);
    expect((await get(goneImage)).status).toBe(200);
    const del = await call(base, 'DELETE', `/api/users/profile/${gone.owner.id}`, undefined, gone.owner.token);
    expect(del.status, del.text).toBe(200);
    await expect.poll(async () => (await get(feedUrl)).status, { timeout: 10_000 }).toBe(404);
    await expect.poll(async () => (await get(goneImage)).status, { timeout: 10_000 }).toBe(404);
    expect((await call(base, 'GET', `/api/trust-stats/${gone.owner.username}`)).status).toBe(404);
  });
});
