import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PublicProfile, PublicQuestion } from '@ques/contracts';
import { createLogger, generateJwtKeys } from '@ques/kit';
import { buildBff } from '../app.js';
import { Upstreams } from '../upstreams.js';
import { excerpt, jsonForScript, profileImagePath, profileMeta, questionMeta, questionPath } from '@ques/contracts/core';
import { escapeHtml, renderMetaBlock } from './meta.js';
import { matchSeoRoute, SeoRenderer } from './renderer.js';

const log = createLogger('seo-test', 'silent');
const ORIGIN = 'https://ques.test';
/** The real template: proves the markers the renderer relies on are in the web app's index.html. */
const INDEX_HTML = fileURLToPath(new URL('../../../web/index.html', import.meta.url));
const DEFAULT_TITLE = '<title>Ques | Q&amp;A Platform for Businesses and Professionals</title>';
const CRAWLER = { 'user-agent': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' };

const ADA_ID = '0b6b1f5e-5d3c-4c61-9a51-7d0c8a1e2f01';
const Q1 = '1a2b3c4d-0000-4000-8000-000000000001';
const Q2 = '1a2b3c4d-0000-4000-8000-000000000002';
const Q3 = '1a2b3c4d-0000-4000-8000-000000000003';
const HIDDEN = '1a2b3c4d-0000-4000-8000-00000000000f';

function profile(over: Partial<PublicProfile> = {}): PublicProfile {
  return {
    _id: ADA_ID,
    id: ADA_ID,
    username: 'ada',
    name: 'Ada Lovelace',
    bio: 'Mathematician. I write about engines, numbers and poetical science.',
    avatarUrl: `/images/avatars/${ADA_ID}/abc123def.webp`,
    brandColorMain: '#2A4B7C',
    brandColorLight: '#F0F4FA',
    archiveProfile: false,
    ...over,
  };
}

function question(id: string, over: Partial<PublicQuestion> = {}): PublicQuestion {
  return {
    _id: id,
    id,
    question: `Question ${id.slice(-1)}?`,
    detail: '',
    answer: `Answer ${id.slice(-1)}.`,
    source: '',
    tags: [],
    status: 'Answered',
    isCurated: false,
    displayOnProfile: true,
    deletedByReceiver: false,
    toUsername: 'ada',
    recipientName: 'Ada Lovelace',
    replierName: 'Ada Lovelace',
    createdAt: '2025-04-01T10:00:00.000Z',
    updatedAt: '2025-04-02T10:00:00.000Z',
    answeredAt: '2025-04-02T10:00:00.000Z',
    ...over,
  };
}

/** Stand-ins for identity and questions on real sockets, with switchable failures and call counters. */
async function startServices() {
  const state = {
    profiles: new Map<string, PublicProfile>(),
    questions: new Map<string, PublicQuestion>(),
    identityStatus: 200,
    listStatus: 200,
    delayMs: 0,
    calls: { profile: 0, list: 0, question: 0 },
    lastListQuery: {} as Record<string, string>,
    lastHeaders: {} as Record<string, unknown>,
  };
  const wait = () => new Promise((r) => setTimeout(r, state.delayMs));
  const identity = Fastify();
  identity.get<{ Params: { username: string } }>('/api/users/public/:username', async (request, reply) => {
    state.calls.profile += 1;
    state.lastHeaders = request.headers;
    await wait();
    if (state.identityStatus !== 200) return reply.status(state.identityStatus).send({ message: 'boom' });
    const p = state.profiles.get(request.params.username);
    return p ? p : reply.status(404).send({ message: 'User not found' });
  });
  const questions = Fastify();
  questions.get<{ Querystring: Record<string, string> }>('/api/questions', async (request, reply) => {
    state.calls.list += 1;
    state.lastListQuery = request.query;
    if (state.listStatus !== 200) return reply.status(state.listStatus).send({ message: 'boom' });
    const items = [...state.questions.values()].filter(
      (q) => q.toUsername === request.query.username && q.answer && q.displayOnProfile,
    );
    return items.slice(0, Number(request.query.limit ?? 100));
  });
  questions.get<{ Params: { id: string } }>('/api/questions/:id', async (request, reply) => {
    state.calls.question += 1;
    const q = state.questions.get(request.params.id);
    return q && q.answer && q.displayOnProfile
      ? q
      : reply.status(404).send({ message: 'Question not found' });
  });
  const urls = {
    identity: await identity.listen({ port: 0, host: '127.0.0.1' }),
    questions: await questions.listen({ port: 0, host: '127.0.0.1' }),
  };
  return { state, urls, close: async () => void (await Promise.all([identity.close(), questions.close()])) };
}

function seedAda(state: Awaited<ReturnType<typeof startServices>>['state']) {
  state.profiles.clear();
  state.questions.clear();
  state.profiles.set('ada', profile());
  state.profiles.set(
    'grace',
    profile({
      _id: 'g',
      id: 'g',
      username: 'grace',
      name: 'Grace Hopper',
      bio: '',
      avatarUrl: '/images/user-image.png',
    }),
  );
  state.questions.set(
    Q3,
    question(Q3, {
      question: 'Newest: is <b>bold</b> "safe"?',
      answer: 'Yes </script><script>alert(1)</script> & more.',
    }),
  );
  state.questions.set(
    Q2,
    question(Q2, {
      question: 'What’s the Analytical Engine, really?',
      detail: 'Asked at a talk.',
      answer: 'A general-purpose computer. '.repeat(20),
    }),
  );
  state.questions.set(Q1, question(Q1));
  state.questions.set(HIDDEN, question(HIDDEN, { displayOnProfile: false }));
  state.identityStatus = 200;
  state.listStatus = 200;
  state.delayMs = 0;
  state.calls = { profile: 0, list: 0, question: 0 };
}

/** The value of `<meta {attr}="{key}" content="…">` (or the canonical href) in the first `limit` bytes. */
function tag(html: string, attr: 'name' | 'property', key: string, limit = 4096): string | undefined {
  const head = Buffer.from(html).subarray(0, limit).toString();
  return new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`).exec(head)?.[1];
}
const canonical = (html: string, limit = 4096) =>
  /<link rel="canonical" href="([^"]*)"/.exec(Buffer.from(html).subarray(0, limit).toString())?.[1];
const title = (html: string, limit = 4096) =>
  /<title>([^<]*)<\/title>/.exec(Buffer.from(html).subarray(0, limit).toString())?.[1];
function jsonLd(html: string): any {
  const match = /<script type="application\/ld\+json" id="ques-structured-data">([\s\S]*?)<\/script>/.exec(
    html,
  );
  return match ? JSON.parse(match[1]!) : null;
}

describe('page metadata (pure)', () => {
  it('escapes text for HTML and JSON for a script element', () => {
    expect(escapeHtml(`<a href="x">Tom & 'Jerry'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;',
    );
    const value = { text: '</script><!-- & \u2028' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('cuts descriptions at 150 characters with an ellipsis, collapsing whitespace', () => {
    expect(excerpt('  a \n b  ')).toBe('a b');
    const long = excerpt('x'.repeat(400));
    expect(long).toHaveLength(150);
    expect(long.endsWith('…')).toBe(true);
  });

  it('builds the answer page path with the shared slug rule', () => {
    expect(questionPath('ada', Q1, 'Is it free, really?')).toBe(`/ask/ada/question/${Q1}/is-it-free-really`);
    expect(questionPath('ada', Q1, '???')).toBe(`/ask/ada/question/${Q1}`);
  });

  it('profile: "{name} — Ask Me Anything", bio excerpt, its share card (issue 15), FAQPage of the first 2 answers', () => {
    const meta = profileMeta(ORIGIN, profile(), [question(Q3), question(Q2), question(Q1)]);
    expect(meta).toMatchObject({
      title: 'Ada Lovelace — Ask Me Anything',
      description: profile().bio,
      canonical: `${ORIGIN}/ask/ada`,
      image: `${ORIGIN}${profileImagePath(profile())}`,
      twitterCard: 'summary_large_image',
    });
    expect((meta.jsonLd as any).mainEntity.map((q: any) => q.name)).toEqual(['Question 3?', 'Question 2?']);
  });

  it('profile without bio, avatar or answers: default sentence, its share card, no structured data', () => {
    const meta = profileMeta(ORIGIN, profile({ bio: ' ', avatarUrl: '/images/user-image.png' }), []);
    expect(meta.description).toBe(
      'Ask Ada Lovelace a question on Ques and read the answers they have already given.',
    );
    expect(meta.image).toMatch(/\/share\/profile\/ada\/[0-9a-f]{16}\.png$/);
    expect(meta.twitterCard).toBe('summary_large_image');
    expect(meta.jsonLd).toBeNull();
  });

  it('answer page: question as title, answer excerpt, canonical with slug, QAPage', () => {
    const meta = questionMeta(
      ORIGIN,
      profile(),
      question(Q2, { question: 'How do I start?', detail: 'New here', answer: 'Begin.' }),
    );
    expect(meta.title).toBe('How do I start? — Ada Lovelace on Ques');
    expect(meta.description).toBe('Begin.');
    expect(meta.canonical).toBe(`${ORIGIN}/ask/ada/question/${Q2}/how-do-i-start`);
    expect(meta.jsonLd).toMatchObject({
      '@type': 'QAPage',
      mainEntity: {
        '@type': 'Question',
        name: 'How do I start?',
        text: 'New here',
        answerCount: 1,
        acceptedAnswer: { text: 'Begin.' },
      },
    });
  });

  it('keeps the share tags in the first 4 KB even for the longest, most escaped texts', () => {
    const nasty = '"<&>\''.repeat(60); // 300 characters, each escaped to 4–6
    const block = renderMetaBlock(
      questionMeta(
        ORIGIN,
        profile({ name: nasty.slice(0, 80) }),
        question(Q1, { question: nasty, answer: nasty.repeat(60) }),
      ),
    );
    const first4k = Buffer.from(block).subarray(0, 4096).toString();
    for (const needle of [
      '<title>',
      'name="description"',
      'rel="canonical"',
      'property="og:image"',
      'name="twitter:card"',
    ]) {
      expect(first4k).toContain(needle);
    }
    expect(block).not.toContain('<&>');
  });

  it('matches exactly the public page routes', () => {
    expect(matchSeoRoute('/ask/Ada')).toEqual({ kind: 'profile', username: 'ada' });
    expect(matchSeoRoute('/ask/ada/')).toEqual({ kind: 'profile', username: 'ada' });
    expect(matchSeoRoute('/ask/ada%20x')).toEqual({ kind: 'profile', username: 'ada x' });
    expect(matchSeoRoute(`/ask/ada/question/${Q1}`)).toEqual({ kind: 'question', username: 'ada', id: Q1 });
    expect(matchSeoRoute(`/ask/ada/question/${Q1.toUpperCase()}/some-slug`)).toEqual({
      kind: 'question',
      username: 'ada',
      id: Q1,
    });
    // An id that is no UUID is still the answer page's shape: the renderer gives it the not-found page.
    expect(matchSeoRoute('/ask/ada/question/Not-A-UUID/x')).toEqual({ kind: 'question', username: 'ada', id: 'not-a-uuid' });
    expect(matchSeoRoute(`/ask/ada/question/${'x'.repeat(101)}`)).toBe('not-found');
    expect(matchSeoRoute('/ask/ada/question/%E0%A4%A')).toBe('not-found');
    expect(matchSeoRoute('/ask/%E0%A4%A')).toBe('not-found');
    for (const other of [
      '/',
      '/ask',
      '/login',
      '/admin/account-settings',
      `/ask/ada/question/${Q1}/a/b`,
      '/ask/ada/other',
    ]) {
      expect(matchSeoRoute(other)).toBeNull();
    }
  });
});

describe('server-rendered page metadata through the BFF', () => {
  let services: Awaited<ReturnType<typeof startServices>>;
  let bff: FastifyInstance;
  let identityOnly: FastifyInstance;
  const keys = generateJwtKeys();
  const jwt = { publicKey: keys.publicKey, issuer: 'ques-identity', audience: 'ques' };

  beforeAll(async () => {
    services = await startServices();
    const webDist = mkdtempSync(join(tmpdir(), 'bff-seo-'));
    copyFileSync(INDEX_HTML, join(webDist, 'index.html'));
    bff = await buildBff({ log, upstreams: services.urls, jwt, publicOrigin: ORIGIN, webDist });
    identityOnly = await buildBff({
      log,
      upstreams: { identity: services.urls.identity },
      jwt,
      publicOrigin: ORIGIN,
      webDist,
    });
  });
  afterAll(async () => {
    await bff?.close();
    await identityOnly?.close();
    await services?.close();
  });
  // Fresh names per test: the BFF caches rendered pages for a few seconds.
  let n = 0;
  let username = 'ada';
  beforeEach(() => {
    seedAda(services.state);
    n += 1;
    username = `ada${n}`;
    const p = profile({ username });
    services.state.profiles.set(username, p);
    for (const q of [...services.state.questions.values()])
      services.state.questions.set(q._id, { ...q, toUsername: username });
  });

  it("gives a crawler without JavaScript the owner's title, description, canonical, og:image and twitter:card in the first 4 KB", async () => {
    const res = await bff.inject({ method: 'GET', url: `/ask/${username}`, headers: CRAWLER });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(title(html)).toBe('Ada Lovelace — Ask Me Anything');
    expect(tag(html, 'name', 'description')).toBe(profile().bio);
    expect(canonical(html)).toBe(`${ORIGIN}/ask/${username}`);
    expect(tag(html, 'property', 'og:image')).toMatch(new RegExp(`^${ORIGIN}/share/profile/${username}/[0-9a-f]{16}\\.png$`));
    expect(tag(html, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(tag(html, 'property', 'og:title')).toBe('Ada Lovelace — Ask Me Anything');
    expect(tag(html, 'property', 'og:url')).toBe(`${ORIGIN}/ask/${username}`);
    expect(tag(html, 'name', 'twitter:image')).toBe(tag(html, 'property', 'og:image'));
    // The default block is replaced, not added to; the rest of the shell is intact.
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).not.toContain(DEFAULT_TITLE);
    expect(html).toContain('<div id="root"></div>');
    expect(html).toContain('<meta name="theme-color"');
  });

  it('embeds FAQPage data for the first 2 public answers, with user text unable to break out of the script', async () => {
    const res = await bff.inject({ method: 'GET', url: `/ask/${username}`, headers: CRAWLER });
    expect(services.state.lastListQuery).toMatchObject({ username, role: 'receiver', limit: '2' });
    const data = jsonLd(res.body);
    expect(data['@type']).toBe('FAQPage');
    expect(data.mainEntity).toHaveLength(2);
    expect(data.mainEntity[0]).toEqual({
      '@type': 'Question',
      name: 'Newest: is <b>bold</b> "safe"?',
      acceptedAnswer: { '@type': 'Answer', text: 'Yes </script><script>alert(1)</script> & more.' },
    });
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body.match(/<\/script>/g)).toHaveLength(
      1 + (res.body.match(/<script type="module"/g)?.length ?? 0),
    );
  });

  it('escapes what the owner wrote in every tag', async () => {
    services.state.profiles.set(
      username,
      profile({
        username,
        name: 'Eve "><script>alert(1)</script>',
        bio: `Bio with <img src=x onerror=alert(1)> & 'quotes'`,
      }),
    );
    const res = await bff.inject({ method: 'GET', url: `/ask/${username}`, headers: CRAWLER });
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<img src=x');
    expect(title(res.body)).toBe('Eve &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; — Ask Me Anything');
    expect(tag(res.body, 'name', 'description')).toBe(
      'Bio with &lt;img src=x onerror=alert(1)&gt; &amp; &#39;quotes&#39;',
    );
  });

  it('renders the answer page with its question, answer excerpt, slugged canonical and QAPage data', async () => {
    const res = await bff.inject({
      method: 'GET',
      url: `/ask/${username}/question/${Q2}/whats-the-analytical-engine-really`,
      headers: { 'user-agent': 'Twitterbot/1.0' },
    });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(title(html)).toBe('What’s the Analytical Engine, really? — Ada Lovelace on Ques');
    expect(tag(html, 'name', 'description')).toBe(excerpt('A general-purpose computer. '.repeat(20)));
    expect(canonical(html)).toBe(
      `${ORIGIN}/ask/${username}/question/${Q2}/whats-the-analytical-engine-really`,
    );
    expect(tag(html, 'property', 'og:image')).toMatch(new RegExp(`^${ORIGIN}/share/answer/${Q2}/[0-9a-f]{16}\\.png$`));
    expect(tag(html, 'name', 'twitter:card')).toBe('summary_large_image');
    expect(tag(html, 'property', 'og:type')).toBe('article');
    const data = jsonLd(html);
    expect(data).toMatchObject({
      '@type': 'QAPage',
      mainEntity: { name: 'What’s the Analytical Engine, really?', text: 'Asked at a talk.' },
    });
    // Without a slug, or with a stale one, the canonical still names the one right URL.
    const bare = await bff.inject({ method: 'GET', url: `/ask/${username}/question/${Q2}` });
    expect(canonical(bare.body)).toBe(
      `${ORIGIN}/ask/${username}/question/${Q2}/whats-the-analytical-engine-really`,
    );
  });

  it('answers 404 with the default metadata for an unknown owner, a foreign, hidden or malformed question', async () => {
    const before = { ...services.state.calls };
    for (const url of [
      '/ask/nobody-here',
      `/ask/grace/question/${Q1}/question-1`, // Ada's answer under Grace's name
      `/ask/${username}/question/${HIDDEN}`,
      `/ask/${username}/question/1a2b3c4d-0000-4000-8000-0000000000aa`,
      `/ask/${username}/question/not-a-uuid/slug`,
    ]) {
      const res = await bff.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(DEFAULT_TITLE);
      expect(res.body, url).toContain('<div id="root"></div>');
    }
    // The malformed id never reached the questions service.
    expect(services.state.calls.question - before.question).toBe(3);
  });

  it('serves the default metadata (status 200) when identity fails or is too slow, and does not keep that', async () => {
    services.state.identityStatus = 503;
    const failed = await bff.inject({ method: 'GET', url: `/ask/${username}`, headers: CRAWLER });
    expect(failed.statusCode).toBe(200);
    expect(failed.body).toContain(DEFAULT_TITLE);

    services.state.identityStatus = 200;
    const recovered = await bff.inject({ method: 'GET', url: `/ask/${username}`, headers: CRAWLER });
    expect(title(recovered.body)).toBe('Ada Lovelace — Ask Me Anything');

    n += 1;
    services.state.profiles.set(`slow${n}`, profile({ username: `slow${n}` }));
    services.state.delayMs = 2_500;
    const started = Date.now();
    const slow = await bff.inject({ method: 'GET', url: `/ask/slow${n}` });
    expect(Date.now() - started).toBeLessThan(2_400);
    expect(slow.statusCode).toBe(200);
    expect(slow.body).toContain(DEFAULT_TITLE);
  });

  it('still gives the profile preview (without FAQ data) when the questions service fails', async () => {
    services.state.listStatus = 500;
    const res = await bff.inject({ method: 'GET', url: `/ask/${username}` });
    expect(res.statusCode).toBe(200);
    expect(title(res.body)).toBe('Ada Lovelace — Ask Me Anything');
    expect(jsonLd(res.body)).toBeNull();
    // Not cached: once the list is back, the FAQ data is there.
    services.state.listStatus = 200;
    const again = await bff.inject({ method: 'GET', url: `/ask/${username}` });
    expect(jsonLd(again.body)?.['@type']).toBe('FAQPage');
  });

  it('without a questions service: profile preview without FAQ data, answer pages with the default block', async () => {
    const res = await identityOnly.inject({ method: 'GET', url: `/ask/${username}` });
    expect(title(res.body)).toBe('Ada Lovelace — Ask Me Anything');
    expect(jsonLd(res.body)).toBeNull();
    const answer = await identityOnly.inject({ method: 'GET', url: `/ask/${username}/question/${Q1}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain(DEFAULT_TITLE);
  });

  it('renders a page once for many concurrent visitors and reuses it, passing the correlation id on', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        bff.inject({
          method: 'GET',
          url: `/ask/${username}?tag=x`,
          headers: { 'x-correlation-id': 'corr-seo-1' },
        }),
      ),
    );
    expect(new Set(results.map((r) => title(r.body)))).toEqual(new Set(['Ada Lovelace — Ask Me Anything']));
    expect(services.state.calls.profile).toBe(1);
    expect(services.state.calls.list).toBe(1);
    expect(services.state.lastHeaders['x-correlation-id']).toBe('corr-seo-1');
    await bff.inject({ method: 'GET', url: `/ask/${username.toUpperCase()}/` });
    expect(services.state.calls.profile).toBe(1);
  });

  it('leaves every other route with the default metadata of index.html', async () => {
    for (const url of ['/', '/login', '/admin/account-settings', '/terms-of-use']) {
      const res = await bff.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(DEFAULT_TITLE);
    }
    expect(services.state.calls.profile).toBe(0);
  });
});

describe('SeoRenderer cache', () => {
  let services: Awaited<ReturnType<typeof startServices>>;
  let upstreams: Upstreams;
  beforeAll(async () => {
    services = await startServices();
    upstreams = new Upstreams(services.urls);
  });
  afterAll(async () => {
    await upstreams?.close();
    await services?.close();
  });
  beforeEach(() => seedAda(services.state));

  it('re-renders after the time to live, so an owner’s edit reaches previews within seconds', async () => {
    let now = 1_000_000;
    const seo = new SeoRenderer({
      upstreams,
      indexHtmlPath: INDEX_HTML,
      publicOrigin: `${ORIGIN}/`,
      log,
      cacheTtlMs: 10_000,
      now: () => now,
    });
    expect(title((await seo.render('/ask/ada'))!.html)).toBe('Ada Lovelace — Ask Me Anything');
    services.state.profiles.set('ada', profile({ name: 'Ada King' }));
    now += 9_000;
    expect(title((await seo.render('/ask/ada'))!.html)).toBe('Ada Lovelace — Ask Me Anything');
    now += 2_000;
    expect(title((await seo.render('/ask/ada'))!.html)).toBe('Ada King — Ask Me Anything');
    expect(canonical((await seo.render('/ask/ada'))!.html)).toBe(`${ORIGIN}/ask/ada`);
    expect(services.state.calls.profile).toBe(2);
  });

  it('remembers unknown owners for less time and keeps a bounded number of pages', async () => {
    let now = 0;
    const seo = new SeoRenderer({
      upstreams,
      indexHtmlPath: INDEX_HTML,
      publicOrigin: ORIGIN,
      log,
      notFoundTtlMs: 1_000,
      maxEntries: 3,
      now: () => now,
    });
    expect((await seo.render('/ask/ghost'))!.status).toBe(404);
    now += 500;
    await seo.render('/ask/ghost');
    expect(services.state.calls.profile).toBe(1);
    now += 600;
    await seo.render('/ask/ghost');
    expect(services.state.calls.profile).toBe(2);
    for (const name of ['a1', 'a2', 'a3', 'a4']) await seo.render(`/ask/${name}`);
    expect((seo as unknown as { cache: Map<string, unknown> }).cache.size).toBe(3);
  });

  it('returns null for other paths and when index.html has no metadata block', async () => {
    const seo = new SeoRenderer({ upstreams, indexHtmlPath: INDEX_HTML, publicOrigin: ORIGIN, log });
    expect(await seo.render('/login')).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), 'bff-seo-plain-'));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    const plain = new SeoRenderer({
      upstreams,
      indexHtmlPath: join(dir, 'index.html'),
      publicOrigin: ORIGIN,
      log,
    });
    expect(await plain.render('/ask/ada')).toBeNull();
    const missing = new SeoRenderer({
      upstreams,
      indexHtmlPath: join(dir, 'nope.html'),
      publicOrigin: ORIGIN,
      log,
    });
    expect(await missing.render('/ask/ada')).toBeNull();
  });
});
