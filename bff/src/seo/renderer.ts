import { stat, readFile } from 'node:fs/promises';
import { isUuid, type PublicProfile, type PublicQuestion } from '@ques/contracts';
import {
  defaultMeta,
  NEXT_CURSOR_HEADER,
  profileMeta,
  profilePath,
  questionMeta,
  STRUCTURED_DATA_QUESTIONS,
  type TrustStats,
} from '@ques/contracts/core';
import type { PageRendering } from '../pages/ssr.js';
import { composePage, type Screen } from '../pages/template.js';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceName, Upstreams } from '../upstreams.js';
import { renderMetaBlock, splitIndexHtml, withMetaBlock, type IndexParts } from './meta.js';
import { matchSeoRoute, notFound, type Loaded, type SeoRoute } from './route.js';

/** The web app's first page of public answers (web/src/features/public-profile/api.ts QUESTIONS_PAGE_SIZE). */
export const PUBLIC_PAGE_SIZE = 24;

export { matchSeoRoute, type SeoRoute } from './route.js';

export interface SeoPage {
  status: 200 | 301 | 404;
  html: string;
  /** A 301's target path (issue 28: a handle renamed away); the caller adds the request's query string. */
  location?: string;
}

/** The pages without data of their own that the server renders too (when it renders pages, docs/adr/0024). */
const STATIC_PAGES: Record<string, Screen> = {
  '/': 'home',
  '/index.html': 'home',
  '/terms-of-use': 'terms',
  '/privacy-policy': 'privacy',
};
/** Query parameters a rendered page may depend on and still be cached (the profile's tag filter). */
const CACHED_QUERY = new Set(['tag']);


interface CachedPage extends SeoPage {
  /** Keep for the full time to live, the not-found time, or not at all. */
  keep: 'ttl' | 'short' | 'none';
  /** What the page shows (lower case): owner id and username, question ids. `evict` drops pages by these. */
  tags: string[];
}

export interface SeoRendererOptions {
  upstreams: Upstreams;
  /** The app shell's HTML as served (web/build.ts reads it once, with the public origin applied). */
  indexHtml?: string;
  /** Or the built web app's index.html on disk: re-read when it changes (a rebuild while the BFF runs). */
  indexHtmlPath?: string;
  /** Absolute URLs (canonical, og:url, og:image) use the configured origin, never the request's Host header. */
  publicOrigin: string;
  log: FastifyBaseLogger;
  /**
   * The web app's server render and its document (pages/ssr.ts): public pages then go out fully rendered, with the
   * data they were rendered with (docs/adr/0024). Without it, only the metadata block of index.html is rendered.
   */
  pages?: PageRendering | null;
  /**
   * Serve a page past its time to live while it is re-rendered (set when changes evict pages as they happen:
   * pages/events.ts). Off: a visitor after the time to live waits for the new render.
   */
  staleWhileRevalidate?: boolean;
  /** How long a rendered page is reused. Short: an owner's edit shows in share previews within seconds. */
  cacheTtlMs?: number;
  /** Unknown usernames and questions are remembered for less time. */
  notFoundTtlMs?: number;
  maxEntries?: number;
  /** Per upstream call; past it the page goes out with the default metadata. */
  timeoutMs?: number;
  now?: () => number;
  /** Told of every eviction (issue 15: the share images and feeds are dropped by the same changes). */
  onEvict?: (tags: readonly string[], options: { profiles: boolean }) => void;
}

class UpstreamError extends Error {}

/**
 * Renders the public pages from the services' data, with a small in-memory cache (one in-flight render per page,
 * however many visitors ask at once), evicted when what a page shows changes (`evict`, fed by the bus and the BFF's own writes: pages/events.ts).
 * With the web app's server render (`pages`), the whole page: profile, answer page, home and legal pages; without
 * it, the metadata block of index.html for crawlers. Any failure gives a usable page: the spec's loading texts
 * (and the app, loaded at once, fetches), or the default block.
 */
export class SeoRenderer {
  private readonly cache = new Map<
    string,
    { expires: number; value: Promise<CachedPage>; settled: boolean; stale?: Promise<CachedPage> }
  >();
  private template: { parts: IndexParts | null; html: string; mtimeMs: number; checkedAt: number } | null =
    null;
  private readonly origin: string;
  private readonly ttl: number;
  private readonly notFoundTtl: number;
  private readonly maxEntries: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: SeoRendererOptions) {
    this.origin = opts.publicOrigin.replace(/\/+$/, '');
    this.ttl = opts.cacheTtlMs ?? 10_000;
    this.notFoundTtl = opts.notFoundTtlMs ?? 5_000;
    this.maxEntries = opts.maxEntries ?? 1_000;
    this.timeoutMs = opts.timeoutMs ?? 1_500;
    this.now = opts.now ?? Date.now;
  }

  /** Whether pages are server-rendered (not only their metadata). */
  get rendersPages(): boolean {
    return Boolean(this.opts.pages);
  }

  /**
   * The page for `pathname` (and `search`, the query string with its `?`), or null when it is not one of the public
   * pages (the caller serves index.html).
   */
  async render(pathname: string, correlationId?: string, search = ''): Promise<SeoPage | null> {
    const pages = this.opts.pages;
    const screen = pages ? STATIC_PAGES[pathname] : undefined;
    const route = screen ? null : matchSeoRoute(pathname);
    if (!screen && !route) return null;
    const template = await this.loadTemplate().catch(() => null);
    if (!template?.parts) return null;
    if (route === 'not-found') return { status: 404, html: template.html };

    // Only the tag filter's variants of a page are cached; any other query (a checkout's return) is rendered once.
    const params = new URLSearchParams(search);
    const cacheable = pages ? [...params.keys()].every((key) => CACHED_QUERY.has(key)) : true;
    const variant = pages && params.has('tag') ? `?tag=${params.get('tag')}` : '';
    const key = screen
      ? `s:${screen}`
      : route!.kind === 'profile'
        ? `p:${route!.username}${variant}`
        : `q:${route!.username}:${route!.id}`;
    // A page with such a query has work for the app at once (a checkout's return tidies its address): no waiting for intent.
    const build = () =>
      this.page(
        pathname,
        screen ? { kind: 'static', screen } : route!,
        pages ? pathname + (cacheable ? variant : search) : '',
        template.parts!,
        template.html,
        correlationId,
        !cacheable,
      );
    if (!cacheable) return build();
    return this.cached(key, build);
  }

  /**
   * Drops every cached page that shows one of `tags` — an owner's user id or username, a question id — and keeps
   * a render under way that started before this from being cached (a profile edit, an answer published, hidden or
   * deleted, a deleted account; pages/events.ts). `profiles` drops every profile page too (a question became
   * visible: no cached page shows it yet).
   */
  evict(tags: readonly string[], { profiles = false }: { profiles?: boolean } = {}): void {
    const wanted = new Set(tags.filter(Boolean).map((t) => t.toLowerCase()));
    this.opts.onEvict?.([...wanted], { profiles });
    const now = this.now();
    for (const tag of wanted) {
      this.evictedAt.set(tag, now);
      if (this.evictedAt.size > 10_000) this.evictedAt.delete(this.evictedAt.keys().next().value!);
    }
    if (profiles) this.profilesEvictedAt = now;
    // Pages still rendering have no tags yet: they are checked against `evictedAt` when they settle.
    for (const key of [...this.cache.keys()]) {
      if ((profiles && key.startsWith('p:')) || this.tagsByKey.get(key)?.some((t) => wanted.has(t))) {
        this.cache.delete(key);
        this.tagsByKey.delete(key);
      }
    }
  }

  /** Drops everything. */
  clear(): void {
    this.cache.clear();
    this.tagsByKey.clear();
  }

  private readonly evictedAt = new Map<string, number>();
  private profilesEvictedAt = -Infinity;
  private readonly tagsByKey = new Map<string, string[]>();

  private cached(key: string, build: () => Promise<CachedPage>): Promise<CachedPage> {
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit && !hit.settled) return hit.stale ?? hit.value;
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.cache.delete(key);
    // Past its time to live a page is re-rendered in the background and the old one served meanwhile — when changes
    // evict pages as they happen (the bus), the time to live is only a safety net and nobody needs to wait for it.
    const stale = hit && this.opts.staleWhileRevalidate && this.ttl > 0 ? hit.value : undefined;

    const startedAt = now;
    const value = build();
    // Cached while in flight, so concurrent visitors share one render; kept only if it is worth keeping.
    const entry: { expires: number; value: Promise<CachedPage>; settled: boolean; stale?: Promise<CachedPage> } = {
      expires: now + this.ttl,
      value,
      settled: false,
      ...(stale ? { stale } : {}),
    };
    this.cache.set(key, entry);
    // The stale page's tags stay until the new render settles: an eviction meanwhile drops both.
    if (!stale) this.tagsByKey.delete(key);
    while (this.cache.size > this.maxEntries) {
      const oldest = this.cache.keys().next().value!;
      this.cache.delete(oldest);
      this.tagsByKey.delete(oldest);
    }
    void value.then(
      (result) => {
        entry.settled = true;
        delete entry.stale;
        if (this.cache.get(key) !== entry) return;
        const outdated =
          result.tags.some((t) => (this.evictedAt.get(t) ?? -1) >= startedAt) ||
          (key.startsWith('p:') && this.profilesEvictedAt >= startedAt);
        if (result.keep === 'none' || outdated) {
          this.cache.delete(key);
          this.tagsByKey.delete(key);
          return;
        }
        this.tagsByKey.set(key, result.tags);
        if (result.keep === 'short') entry.expires = this.now() + this.notFoundTtl;
      },
      () => {
        entry.settled = true;
        delete entry.stale;
        if (this.cache.get(key) === entry) this.cache.delete(key);
      },
    );
    return stale ?? value;
  }

  /** Loads, renders and composes one page; never rejects. */
  private async page(
    pathname: string,
    route: SeoRoute | { kind: 'static'; screen: Screen },
    url: string,
    parts: IndexParts,
    shellHtml: string,
    correlationId: string | undefined,
    hydrateNow = false,
  ): Promise<CachedPage> {
    const pageKey = route.kind === 'profile' ? `p:${route.username}` : route.kind === 'question' ? `q:${route.id}` : route.screen;
    let loaded: Loaded;
    try {
      loaded = route.kind === 'static' ? { status: 200, meta: null, values: {}, complete: true } : await this.load(route, correlationId);
    } catch (err) {
      this.opts.log.warn({ err, page: pageKey }, 'page data unavailable, serving the page without it');
      loaded = { status: 'unavailable', meta: null, values: {}, complete: false };
    }
    const names = {
      tags: [
        ...(route.kind === 'static' ? [] : [route.username]),
        ...(route.kind === 'question' ? [route.id] : []),
        ...(loaded.ownerId ? [loaded.ownerId] : []),
        ...(loaded.questionIds ?? []),
      ].map((t) => t.toLowerCase()),
    };
    // A renamed handle: the same path under the new one (the owner's id tag drops it if they rename again).
    if (loaded.status === 'moved' && route.kind !== 'static')
      return { status: 301, html: '', location: movedPath(pathname, loaded.movedTo!), keep: 'ttl', ...names };
    const keep = !loaded.complete || loaded.status === 'unavailable' ? 'none' : loaded.status === 404 ? 'short' : 'ttl';
    const status = loaded.status === 404 ? 404 : 200;

    const pages = this.opts.pages;
    if (pages) {
      const screen: Screen = route.kind === 'static' ? route.screen : route.kind;
      try {
        const rendered = await pages.render.renderPage(
          url,
          { path: pathname, values: loaded.values },
          { origin: this.origin, timeoutMs: this.timeoutMs },
        );
        const meta = rendered.meta ?? loaded.meta ?? defaultMeta(this.origin, pathname);
        const html = composePage(pages.template, {
          screen,
          metaBlock: renderMetaBlock(meta),
          rootHtml: rendered.html,
          data: { path: pathname, values: loaded.values },
          hydrateNow: hydrateNow || !loaded.complete,
        });
        return { status, html, keep, ...names };
      } catch (err) {
        this.opts.log.error({ err, page: pageKey }, 'server render failed, serving the app shell');
        return { status, html: shellHtml, keep: 'none', ...names };
      }
    }

    if (loaded.status === 200 && loaded.meta)
      return { status, html: withMetaBlock(parts, renderMetaBlock(loaded.meta)), keep, ...names };
    return { status, html: shellHtml, keep, ...names };
  }

  private async load(route: SeoRoute, correlationId: string | undefined): Promise<Loaded> {
    const profileCall = () =>
      this.getJson<PublicProfile>(
        'identity',
        `/api/users/public/${encodeURIComponent(route.username)}`,
        correlationId,
      );
    if (route.kind === 'profile') {
      const [profile, answers, asking, trust] = await Promise.all([
        profileCall(),
        this.firstAnswers(route.username, correlationId),
        this.opts.pages ? this.askingStatus(route.username, correlationId) : null,
        this.trustStats(route.username, correlationId),
      ]);
      const profileKey = `profile:${route.username}`;
      const questionsKey = `questions:${route.username}`;
      if (profile.body && isRenamed(profile.body, route.username))
        return { status: 'moved', movedTo: profile.body.username, meta: null, values: {}, complete: true, ownerId: profile.body._id };
      if (!profile.body) return notFound(route);
      // Without the answers the preview is still right; only the FAQ data is missing (and the page not cached).
      const mine = answers.items.filter((q) => belongsTo(q, profile.body!));
      const meta = profileMeta(this.origin, profile.body, mine, trust);
      const values: Loaded['values'] = { [profileKey]: { data: profile.body } };
      if (answers.complete) values[questionsKey] = { data: { items: answers.page, nextCursor: answers.nextCursor } };
      // Paused or at the owner's cap (issue 16): the page says so in place of the ask button.
      if (asking) values[`asking:${route.username}`] = { data: asking };
      // Issue 15: the owner's trust stats (figures once established), shown and in the structured data.
      if (trust) values[`trust:${route.username}`] = { data: trust };
      return {
        status: 200,
        meta,
        values,
        complete: answers.complete,
        ownerId: profile.body._id,
        questionIds: answers.page.map((q) => q._id),
      };
    }
    // An id that is no UUID names no answer: nothing to ask the services.
    if (!isUuid(route.id)) return notFound(route);
    if (!this.opts.upstreams.has('questions')) throw new UpstreamError('questions service not configured');
    const [profile, question] = await Promise.all([
      profileCall(),
      this.getJson<PublicQuestion>(
        'questions',
        `/api/questions/${encodeURIComponent(route.id)}`,
        correlationId,
      ),
    ]);
    const answerKey = `answer:${route.id}`;
    if (profile.body && isRenamed(profile.body, route.username))
      return { status: 'moved', movedTo: profile.body.username, meta: null, values: {}, complete: true, ownerId: profile.body._id, questionIds: [route.id] };
    if (!profile.body || !question.body || !belongsTo(question.body, profile.body) || !isPublished(question.body))
      return notFound(route, profile.body?._id);
    return {
      status: 200,
      meta: questionMeta(this.origin, profile.body, question.body),
      values: { [answerKey]: { data: { question: question.body, profile: profile.body } } },
      complete: true,
      ownerId: profile.body._id,
    };
  }

  /**
   * The first page of the public list (spec §7 `GET /api/questions?username=X&role=receiver`), newest first: as
   * many as the web app's first page when the page is rendered, the structured data's few otherwise.
   */
  private async firstAnswers(username: string, correlationId: string | undefined) {
    const none = { items: [] as PublicQuestion[], page: [] as PublicQuestion[], nextCursor: null as string | null, complete: false };
    if (!this.opts.upstreams.has('questions')) return none;
    try {
      const limit = this.opts.pages ? PUBLIC_PAGE_SIZE : STRUCTURED_DATA_QUESTIONS;
      const query = new URLSearchParams({ username, role: 'receiver', limit: String(limit) });
      const list = await this.getJson<PublicQuestion[]>('questions', `/api/questions?${query}`, correlationId);
      const page = Array.isArray(list.body) ? list.body : [];
      const items = page.filter(isPublished);
      return { items: this.opts.pages ? items : items.slice(0, STRUCTURED_DATA_QUESTIONS), page, nextCursor: list.nextCursor, complete: true };
    } catch (err) {
      this.opts.log.warn({ err, username }, 'public answers unavailable for the page');
      return none;
    }
  }

  /** Whether the owner takes questions now (`GET /api/asking/status/:username`); null when unknown (the app asks). */
  private async askingStatus(username: string, correlationId: string | undefined): Promise<unknown> {
    if (!this.opts.upstreams.has('questions')) return null;
    try {
      const status = await this.getJson<unknown>('questions', `/api/asking/status/${encodeURIComponent(username)}`, correlationId);
      return status.body;
    } catch (err) {
      this.opts.log.warn({ err, username }, 'asking status unavailable for the page');
      return null;
    }
  }

  /** The owner's public trust stats (`GET /api/trust-stats/:username`, issue 15); null when unknown. */
  private async trustStats(username: string, correlationId: string | undefined): Promise<TrustStats | null> {
    if (!this.opts.upstreams.has('questions')) return null;
    try {
      const stats = await this.getJson<TrustStats>('questions', `/api/trust-stats/${encodeURIComponent(username)}`, correlationId);
      return stats.body;
    } catch (err) {
      this.opts.log.warn({ err, username }, 'trust stats unavailable for the page');
      return null;
    }
  }

  /** GET a service's JSON: the body on 200, no body (and its message) on 404, an error otherwise or past the timeout. */
  private async getJson<T>(
    service: ServiceName,
    path: string,
    correlationId: string | undefined,
  ): Promise<{ body: T | null; message?: string; nextCursor: string | null }> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (correlationId) headers['x-correlation-id'] = correlationId;
    const res = await this.opts.upstreams.request(service, {
      path,
      method: 'GET',
      headers,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (res.statusCode === 404) {
      const error = (await res.body.json().catch(() => null)) as { message?: unknown } | null;
      return { body: null, message: typeof error?.message === 'string' ? error.message : undefined, nextCursor: null };
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new UpstreamError(`${service} answered ${res.statusCode} for ${path.split('?')[0]}`);
    }
    const cursor = res.headers[NEXT_CURSOR_HEADER];
    return { body: (await res.body.json()) as T, nextCursor: typeof cursor === 'string' && cursor ? cursor : null };
  }

  private async loadTemplate() {
    if (this.opts.indexHtml !== undefined) return (this.template ??= this.parseTemplate(this.opts.indexHtml, 0, 0));
    if (this.opts.indexHtmlPath === undefined) return null;
    const now = this.now();
    if (this.template && now - this.template.checkedAt < 1_000) return this.template;
    const { mtimeMs } = await stat(this.opts.indexHtmlPath);
    if (this.template?.mtimeMs === mtimeMs) {
      this.template.checkedAt = now;
      return this.template;
    }
    const html = await readFile(this.opts.indexHtmlPath, 'utf8');
    this.template = this.parseTemplate(html, mtimeMs, now);
    return this.template;
  }

  private parseTemplate(html: string, mtimeMs: number, checkedAt: number) {
    const parts = splitIndexHtml(html);
    if (!parts)
      this.opts.log.warn(
        { path: this.opts.indexHtmlPath },
        'index.html has no <!--meta:start--> block: page metadata is not rendered',
      );
    return { parts, html, mtimeMs, checkedAt };
  }
}

/** Identity answered with the profile under another handle: `handle` was renamed away (issue 28). */
const isRenamed = (profile: PublicProfile, handle: string) => profile.username.toLowerCase() !== handle.toLowerCase();
/** `/ask/{old}/…` as `/ask/{new}/…`. */
export const movedPath = (pathname: string, handle: string) => pathname.replace(/^\/ask\/[^/]+/i, profilePath(handle));

const belongsTo = (q: PublicQuestion, profile: PublicProfile) =>
  (q.toUsername ?? '').toLowerCase() === profile.username.toLowerCase();
const isPublished = (q: PublicQuestion) =>
  Boolean(q.answer?.trim()) && q.displayOnProfile !== false && !q.deletedByReceiver;
