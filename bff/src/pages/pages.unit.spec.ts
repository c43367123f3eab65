import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import type { EventEnvelope } from '@ques/contracts';
import type { PublicProfile, PublicQuestion } from '@ques/contracts/core';
import { createLogger } from '@ques/kit';
import { SeoRenderer } from '../seo/renderer.js';
import { Upstreams } from '../upstreams.js';
import { evictionFor } from './events.js';
import { answerEntries, escapeXml, profileEntries, sitemapIndex, urlSet } from './sitemap.js';
import type { PageRendering } from './ssr.js';
import { composePage, pageTemplate, type ViteManifest } from './template.js';

const log = createLogger('pages-test', 'silent');
const ORIGIN = 'https://ques.test';

const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <!--meta:start-->
    <title>Ques</title>
    <!--meta:end-->
    <script type="module" crossorigin src="/assets/index-A.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/shared-B.js">
    <link rel="stylesheet" crossorigin href="/assets/index-C.css">
  </head>
  <body>
    <noscript><p>Ques needs JavaScript to run.</p></noscript>
    <div id="root"></div>
  </body>
</html>`;
const MANIFEST: ViteManifest = {
  'index.html': { file: 'assets/index-A.js', imports: ['_shared-B.js'], css: ['assets/index-C.css'] },
  '_shared-B.js': { file: 'assets/shared-B.js' },
  'src/public-entry.ts': { file: 'assets/public-D.js' },
  'src/features/public-profile/ProfilePage.tsx': { file: 'assets/ProfilePage-E.js', imports: ['_shared-B.js'], css: ['assets/ProfilePage-F.css'] },
};

describe('the document around a server render (pure)', () => {
  const template = pageTemplate(SHELL, MANIFEST)!;

  it('loads only the public entry (the app named in data-app), links the page CSS, embeds the data as JSON', () => {
    const html = composePage(template, {
      screen: 'profile',
      metaBlock: '<title>Ada — Ask Me Anything</title>',
      rootHtml: '<link rel="preload" as="image" href="/a.webp"/><main>Ada</main>',
      data: { path: '/ask/ada', values: { x: { data: '</script><script>alert(1)</script>' } } },
      hydrateNow: false,
    });
    expect(html).not.toContain('src="/assets/index-A.js"></script>');
    expect(html).not.toContain('modulepreload');
    expect(html).not.toContain('<noscript>');
    expect(html).toContain('<script type="module" crossorigin id="ques-app" src="/assets/public-D.js" data-app="/assets/index-A.js"></script>');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/ProfilePage-F.css">');
    expect(html.match(/index-C\.css/g)).toHaveLength(1);
    // React's hoisted preload goes to the head; #root holds the render.
    expect(html.indexOf('<link rel="preload" as="image" href="/a.webp"/>')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<div id="root"><main>Ada</main></div>');
    expect(html).toContain('<title>Ada — Ask Me Anything</title>');
    expect(html).not.toContain('<html lang="en" data-hydrate-now>');
    // The data is inert JSON that cannot close its script element; it parses back to the same object.
    const json = /<script type="application\/json" id="ques-page-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(json).not.toMatch(/<\/script/i);
    expect(JSON.parse(json).values.x.data).toBe('</script><script>alert(1)</script>');
  });

  it('asks the app to load at once when data is missing, and refuses a build it cannot render into', () => {
    const html = composePage(template, { screen: 'home', metaBlock: '', rootHtml: '', data: {}, hydrateNow: true });
    expect(html).toContain('<html lang="en" data-hydrate-now>');
    expect(pageTemplate(SHELL, { ...MANIFEST, 'src/public-entry.ts': undefined as never })).toBeNull();
    expect(pageTemplate(SHELL.replace('<div id="root"></div>', ''), MANIFEST)).toBeNull();
  });
});

const envelope = (type: string, data: unknown): EventEnvelope => ({
  id: '00000000-0000-4000-8000-000000000001',
  type,
  version: 1,
  streamId: 's',
  streamVersion: 1,
  occurredAt: new Date().toISOString(),
  correlationId: 'c',
  causationId: null,
  data,
});

describe('which pages an event changes (pure)', () => {
  it('names the owner and the question an event carries; sessions change nothing', () => {
    expect(evictionFor(envelope('UserDeleted', { userId: 'u1' }), 'ques.identity.UserDeleted')).toEqual({ tags: ['u1'], profiles: false });
    expect(evictionFor(envelope('ProfileUpdated', { userId: 'u1', username: 'ada' }), 'ques.identity.ProfileUpdated')).toEqual({ tags: ['u1', 'ada'], profiles: false });
    expect(evictionFor(envelope('SessionsRevoked', { userId: 'u1' }), 'ques.identity.SessionsRevoked')).toBeNull();
    expect(evictionFor(envelope('AnswerPosted', { questionId: 'q1', recipientUserId: 'u1' }), 'ques.questions.AnswerPosted')).toEqual({ tags: ['q1', 'u1'], profiles: false });
    expect(evictionFor(envelope('QuestionDeletedByReceiver', { questionId: 'q1' }), 'ques.questions.QuestionDeletedByReceiver')).toEqual({ tags: ['q1'], profiles: false });
    // Shown again: no cached page names it, so every profile page goes.
    expect(evictionFor(envelope('QuestionVisibilityChanged', { questionId: 'q1', displayOnProfile: true }), 'ques.questions.QuestionVisibilityChanged')).toEqual({ tags: ['q1'], profiles: true });
    expect(evictionFor(envelope('TipAuthorized', { questionId: 'q1' }), 'ques.payments.TipAuthorized')).toBeNull();
  });
});

describe('the sitemap files (pure)', () => {
  it('writes escaped, absolute URLs on the public origin', () => {
    const profiles = profileEntries(ORIGIN, [{ username: 'ada', updatedAt: '2025-01-01T00:00:00.000Z' }]);
    const answers = answerEntries(ORIGIN, [{ id: 'q1', username: 'ada', question: 'Tom & Jerry?', updatedAt: '2025-01-02T00:00:00.000Z' }]);
    expect(profiles[0]!.loc).toBe(`${ORIGIN}/ask/ada`);
    expect(answers[0]!.loc).toBe(`${ORIGIN}/ask/ada/question/q1/tom-jerry`);
    expect(urlSet([{ loc: `${ORIGIN}/a?b=1&c=2` }])).toContain(`<loc>${ORIGIN}/a?b=1&amp;c=2</loc>`);
    expect(sitemapIndex([`${ORIGIN}/sitemap/profiles.xml`])).toContain('<sitemapindex');
    expect(escapeXml(`<'">&`)).toBe('&lt;&apos;&quot;&gt;&amp;');
  });
});

describe('SeoRenderer with the server render: cache and eviction', () => {
  const ADA: PublicProfile = {
    _id: 'u-ada', id: 'u-ada', username: 'ada', name: 'Ada Lovelace', bio: 'Engines.', avatarUrl: '/images/user-image.png',
    brandColorMain: '#2A4B7C', brandColorLight: '#F0F4FA', archiveProfile: false,
  };
  const answer = (id: string): PublicQuestion => ({
    _id: id, id, question: `Q ${id}?`, detail: '', answer: `A ${id}.`, source: '', tags: [], status: 'Answered', isCurated: true,
    displayOnProfile: true, deletedByReceiver: false, toUsername: 'ada', recipientName: 'Ada Lovelace', replierName: 'Ada Lovelace',
    createdAt: '2025-04-01T10:00:00.000Z', updatedAt: '2025-04-01T10:00:00.000Z', answeredAt: '2025-04-01T10:00:00.000Z',
  });

  async function setup(extra: Partial<ConstructorParameters<typeof SeoRenderer>[0]> = {}) {
    const state = { profile: ADA as PublicProfile | null, answers: [answer('q1')], identityStatus: 200, renders: [] as unknown[] };
    const identity = Fastify();
    identity.get('/api/users/public/:username', async (_req, reply) =>
      state.identityStatus !== 200 ? reply.status(state.identityStatus).send({ message: 'boom' }) : state.profile ?? reply.status(404).send({ message: 'User not found' }),
    );
    const questions = Fastify();
    questions.get('/api/questions', async (_req, reply) => reply.header('x-next-cursor', 'next-1').send(state.answers));
    const upstreams = new Upstreams({
      identity: await identity.listen({ port: 0, host: '127.0.0.1' }),
      questions: await questions.listen({ port: 0, host: '127.0.0.1' }),
    });
    const pages: PageRendering = {
      template: pageTemplate(SHELL, MANIFEST)!,
      render: {
        renderPage: async (url, data) => {
          state.renders.push({ url, data });
          const values = (data as { values: Record<string, { data?: { name?: string; items?: PublicQuestion[] } }> }).values;
          const name = values['profile:ada']?.data?.name ?? 'Loading profile...';
          const items = values['questions:ada']?.data?.items?.map((q) => q.question).join('|') ?? 'Loading questions...';
          return { html: `<h1>${name}</h1><p>${items}</p>`, meta: null };
        },
      },
    };
    const seo = new SeoRenderer({ upstreams, publicOrigin: ORIGIN, log, pages, indexHtml: SHELL, ...extra });
    const close = async () => {
      await upstreams.close();
      await identity.close();
      await questions.close();
    };
    return { state, seo, close };
  }

  it('renders the page with its data (the first page and its cursor), reuses it, and drops it when its owner changes', async () => {
    const { state, seo, close } = await setup();
    try {
      const first = await seo.render('/ask/ada');
      expect(first!.status).toBe(200);
      expect(first!.html).toContain('<h1>Ada Lovelace</h1><p>Q q1?</p>');
      expect(first!.html).toContain('"nextCursor":"next-1"');
      expect(first!.html).toContain('<title>Ada Lovelace — Ask Me Anything</title>');
      state.profile = { ...ADA, name: 'Ada King' };
      expect((await seo.render('/ask/ada'))!.html).toContain('Ada Lovelace');
      expect(state.renders).toHaveLength(1);

      seo.evict(['u-ada']);
      expect((await seo.render('/ask/ada'))!.html).toContain('<h1>Ada King</h1>');
      // By a question the page shows.
      state.answers = [];
      seo.evict(['q1']);
      expect((await seo.render('/ask/ada'))!.html).toContain('<p></p>');
      // By the username, and the deletion: 404, the app told the page does not exist, nothing of the person left.
      state.profile = null;
      seo.evict(['ada']);
      const gone = await seo.render('/ask/ada');
      expect(gone!.status).toBe(404);
      expect(gone!.html).not.toContain('Ada');
      expect(gone!.html).toContain('"profile:ada":{"error":"Not found","status":404}');
    } finally {
      await close();
    }
  });

  it('renders an unknown answer, and an id that is no UUID, as 404 pages whose data tells the app so', async () => {
    const { state, seo, close } = await setup();
    try {
      const unknown = '1a2b3c4d-0000-4000-8000-0000000000aa';
      const page = await seo.render(`/ask/ada/question/${unknown}/slug`);
      expect(page!.status).toBe(404);
      expect(page!.html).toContain(`"answer:${unknown}":{"error":"Not found","status":404}`);
      const malformed = await seo.render('/ask/ada/question/Not-A-Uuid');
      expect(malformed!.status).toBe(404);
      expect(malformed!.html).toContain('"answer:not-a-uuid":{"error":"Not found","status":404}');
      // Both were rendered by the app (its not-found page), not sent as the bare shell.
      expect(state.renders.map((r) => (r as { url: string }).url)).toEqual([
        `/ask/ada/question/${unknown}/slug`,
        '/ask/ada/question/Not-A-Uuid',
      ]);
    } finally {
      await close();
    }
  });

  it('renders the loading texts (and asks the app to load at once) when identity fails, and does not keep that', async () => {
    const { state, seo, close } = await setup();
    try {
      state.identityStatus = 500;
      const page = await seo.render('/ask/ada');
      expect(page!.status).toBe(200);
      expect(page!.html).toContain('<h1>Loading profile...</h1>');
      expect(page!.html).toContain('data-hydrate-now');
      state.identityStatus = 200;
      expect((await seo.render('/ask/ada'))!.html).toContain('<h1>Ada Lovelace</h1>');
    } finally {
      await close();
    }
  });

  it('does not keep a render that started before an eviction', async () => {
    const { state, seo, close } = await setup();
    try {
      const pending = seo.render('/ask/ada');
      state.profile = { ...ADA, name: 'Ada King' };
      seo.evict(['u-ada']);
      expect((await pending)!.html).toContain('Ada Lovelace');
      expect((await seo.render('/ask/ada'))!.html).toContain('Ada King');
    } finally {
      await close();
    }
  });

  it('with evictions wired, serves a page past its time to live while it re-renders, never after an eviction', async () => {
    let now = 1_000;
    const { state, seo, close } = await setup({ staleWhileRevalidate: true, cacheTtlMs: 100, now: () => now });
    try {
      expect((await seo.render('/ask/ada'))!.html).toContain('Ada Lovelace');
      state.profile = { ...ADA, name: 'Ada King' };
      now += 200;
      // Expired: the old page at once, the new one rendering.
      expect((await seo.render('/ask/ada'))!.html).toContain('Ada Lovelace');
      await expect.poll(async () => (await seo.render('/ask/ada'))!.html).toContain('Ada King');
      state.profile = { ...ADA, name: 'Ada Byron' };
      now += 200;
      const refreshing = seo.render('/ask/ada');
      seo.evict(['u-ada']);
      await refreshing;
      expect((await seo.render('/ask/ada'))!.html).toContain('Ada Byron');
    } finally {
      await close();
    }
  });

  it('renders home and the legal pages, and a checkout return uncached', async () => {
    const { state, seo, close } = await setup();
    try {
      expect((await seo.render('/'))!.status).toBe(200);
      expect((await seo.render('/terms-of-use'))!.status).toBe(200);
      expect(await seo.render('/login')).toBeNull();
      await seo.render('/ask/ada', undefined, '?checkout=success&questionId=x');
      await seo.render('/ask/ada', undefined, '?checkout=success&questionId=x');
      const urls = state.renders.map((r) => (r as { url: string }).url);
      expect(urls.filter((u) => u.startsWith('/ask/ada?checkout'))).toHaveLength(2);
    } finally {
      await close();
    }
  });
});

describe('SeoRenderer: the status page /q/{token} (ADR 0058)', () => {
  const TOKEN = 'A'.repeat(21) + 'b'.repeat(22);

  async function setup() {
    const state = { status: 'Pending', answerStatus: 200, calls: [] as { url: string; headers: Record<string, unknown> }[], renders: [] as string[] };
    const questions = Fastify();
    questions.get('/api/question-status/:token', async (req, reply) => {
      state.calls.push({ url: req.url, headers: req.headers });
      if (state.answerStatus !== 200) return reply.status(state.answerStatus).send({ message: 'boom' });
      return (req.params as { token: string }).token === TOKEN ? { status: state.status, amount: '$5.00' } : reply.status(404).send({ message: 'Status page not found' });
    });
    const upstreams = new Upstreams({ questions: await questions.listen({ port: 0, host: '127.0.0.1' }) });
    const pages: PageRendering = {
      template: pageTemplate(SHELL, { ...MANIFEST, 'src/features/status/StatusPage.tsx': { file: 'assets/StatusPage-G.js', css: ['assets/StatusPage-H.css'] } })!,
      render: {
        renderPage: async (url, data) => {
          state.renders.push(url);
          const value = (data as { values: Record<string, { data?: { status: string; amount: string }; status?: number }> }).values[`status:${TOKEN}`];
          const html = value?.data ? `<p>${value.data.amount} · ${value.data.status}</p>` : value?.status === 404 ? '<h1>Page not found</h1>' : '<p>Loading</p>';
          return { html, meta: null };
        },
      },
    };
    const seo = new SeoRenderer({ upstreams, publicOrigin: ORIGIN, log, pages, indexHtml: SHELL });
    return { state, seo, close: async () => (await upstreams.close(), await questions.close()) };
  }

  it('renders with its data and its query, private (one robots meta), and never from a cache: a change shows at once', async () => {
    const { state, seo, close } = await setup();
    try {
      const first = (await seo.render(`/q/${TOKEN}`, 'corr-1', '?confirmed=1'))!;
      expect(first.status).toBe(200);
      expect(first.private).toBe(true);
      expect(first.html).toContain('<div id="root"><p>$5.00 · Pending</p></div>');
      expect(first.html.match(/<meta name="robots"[^>]*>/g)).toEqual(['<meta name="robots" content="noindex, nofollow">']);
      expect(first.html).toContain('<link rel="stylesheet" crossorigin href="/assets/StatusPage-H.css">');
      // Live (a countdown, a payment being confirmed): the app loads once the page has painted, not on intent.
      expect(first.html).toContain('<html lang="en" data-hydrate-after-paint>');
      expect(first.html).toContain(`"status:${TOKEN}":{"data":{"status":"Pending","amount":"$5.00"}}`);
      expect(state.renders).toEqual([`/q/${TOKEN}?confirmed=1`]);
      // Questions' read-only call, with the token and nothing of the visitor's request but the correlation id.
      expect(state.calls.map((c) => c.url)).toEqual([`/api/question-status/${TOKEN}`]);
      expect(state.calls[0]!.headers['x-correlation-id']).toBe('corr-1');
      expect(state.calls[0]!.headers.authorization).toBeUndefined();

      state.status = 'Answered';
      expect((await seo.render(`/q/${TOKEN}`))!.html).toContain('<p>$5.00 · Answered</p>');
      expect(state.calls).toHaveLength(2);
      // A public page's cache and evictions have nothing to do with it.
      seo.evict(['anything']);
      expect((await seo.render(`/q/${TOKEN}`))!.html).toContain('Answered');
    } finally {
      await close();
    }
  });

  it('an unknown token is the 404 page; a malformed one too, without asking questions; a failing questions leaves the loading text', async () => {
    const { state, seo, close } = await setup();
    try {
      const unknown = (await seo.render(`/q/${'z'.repeat(43)}`))!;
      expect([unknown.status, unknown.private]).toEqual([404, true]);
      expect(unknown.html).toContain(`"status:${'z'.repeat(43)}":{"error":"Not found","status":404}`);
      const malformed = (await seo.render('/q/short'))!;
      expect([malformed.status, malformed.private]).toEqual([404, true]);
      expect(state.calls).toHaveLength(1);
      state.answerStatus = 503;
      const down = (await seo.render(`/q/${TOKEN}`))!;
      expect([down.status, down.private]).toEqual([200, true]);
      expect(down.html).toContain('<p>Loading</p>');
      expect(down.html).toContain('<html lang="en" data-hydrate-now>');
      expect(await seo.render('/q/a/b')).toBeNull();
    } finally {
      await close();
    }
  });
});
