import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLE_MESSAGES as H } from '@ques/contracts';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, TEST_PASSWORD } from './test/identity-journey.js';

/*
 * Issue 28 through the BFF on the embedded default: after a rename, the old profile, answer, feed and embed URLs
 * answer 301 to the new ones; the sitemap, the feed and the embed show the new handle; reserved and taken handles
 * are refused over the API with their messages.
 */
describe('renaming the public handle, through the BFF', () => {
  let product: EmbeddedProduct;
  let base: string;
  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1000, publicOrigin: 'https://ques.example' });
    base = product.url;
  });
  afterAll(async () => product?.stop());

  const get = (path: string) => fetch(`${base}${path}`, { redirect: 'manual' });

  it('redirects the old URLs with 301 and shows the new handle in the sitemap, the feed and the embed', async () => {
    const signed = await call(base, 'POST', '/api/users', { name: 'Ada Lovelace', email: 'ada.handle@example.com', password: TEST_PASSWORD, username: 'ada-old' });
    expect(signed.status).toBe(201);
    expect(signed.body.user.username).toBe('ada-old');
    const token = signed.body.token as string;
    const curated = await call(base, 'POST', '/api/questions', { isCurated: true, question: 'What is an engine?', answer: 'A machine.', tags: [], displayOnProfile: true, tip: 0 }, token);
    expect(curated.status).toBe(201);
    const id = curated.body._id as string;
    // Rendered (and cached) under the old handle first.
    expect((await get('/ask/ada-old')).status).toBe(200);
    expect((await get('/ask/ada-old/feed.atom')).status).toBe(200);

    const renamed = await call(base, 'PUT', '/api/users/handle', { username: 'ada-new' }, token);
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.user.username).toBe('ada-new');

    const moved = await get('/ask/ada-old?tag=x');
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe('/ask/ada-new?tag=x');
    const answer = await get(`/ask/ada-old/question/${id}/what-is-an-engine`);
    expect(answer.status).toBe(301);
    expect(answer.headers.get('location')).toBe(`/ask/ada-new/question/${id}/what-is-an-engine`);
    const oldFeed = await get('/ask/ada-old/feed.atom');
    expect([oldFeed.status, oldFeed.headers.get('location')]).toEqual([301, '/ask/ada-new/feed.atom']);
    const oldEmbed = await get('/embed/ada-old');
    expect([oldEmbed.status, oldEmbed.headers.get('location')]).toEqual([301, '/embed/ada-new']);

    // The new handle everywhere, once questions has followed the rename (by event).
    await expect.poll(async () => (await (await get('/ask/ada-new/feed.atom')).text()).includes(`/ask/ada-new/question/${id}`), { timeout: 10_000 }).toBe(true);
    const page = await get('/ask/ada-new');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('What is an engine?');
    expect(await (await get('/embed/ada-new')).text()).toContain('https://ques.example/ask/ada-new');
    const profiles = await (await get('/sitemap/profiles.xml')).text();
    expect(profiles).toContain('https://ques.example/ask/ada-new<');
    expect(profiles).not.toContain('/ask/ada-old');
    expect(await (await get('/sitemap/answers.xml')).text()).toContain(`https://ques.example/ask/ada-new/question/${id}/`);

    // The owner's own lists follow too (the new token names the new handle).
    const newToken = renamed.body.accessToken as string;
    const curatedList = await call(base, 'GET', '/api/questions?role=curated', undefined, newToken);
    expect(curatedList.status).toBe(200);
  });

  it('refuses reserved and taken handles over the API with their messages', async () => {
    const reserved = await call(base, 'POST', '/api/users', { name: 'Admin', email: 'admin.handle@example.com', password: TEST_PASSWORD, username: 'admin' });
    expect([reserved.status, reserved.body.message]).toEqual([400, H.reserved]);
    const taken = await call(base, 'POST', '/api/users', { name: 'Ada Again', email: 'ada.again@example.com', password: TEST_PASSWORD, username: 'ada-new' });
    expect([taken.status, taken.body.message]).toEqual([409, H.taken]);
    // Released by a rename: refused to anyone else for 90 days.
    const released = await call(base, 'POST', '/api/users', { name: 'Ada Copy', email: 'ada.copy@example.com', password: TEST_PASSWORD, username: 'ada-old' });
    expect([released.status, released.body.message]).toEqual([409, H.taken]);
    const other = await call(base, 'POST', '/api/users', { name: 'Grace Hopper', email: 'grace.handle@example.com', password: TEST_PASSWORD });
    expect(other.body.user.username).toBe('grace-hopper');
    const rename = await call(base, 'PUT', '/api/users/handle', { username: 'q' }, other.body.token);
    expect([rename.status, rename.body.message]).toEqual([400, H.reserved]);
    const check = await call(base, 'GET', '/api/handles/ada-new/availability');
    expect(check.body).toEqual({ handle: 'ada-new', available: false, reason: H.taken });
    expect((await call(base, 'GET', `/api/handles/${encodeURIComponent('аda-free')}/availability`)).body).toMatchObject({ available: false, reason: H.lookalike });
    expect((await call(base, 'GET', '/api/handles/ada-free/availability')).body).toEqual({ handle: 'ada-free', available: true });
  });
});
