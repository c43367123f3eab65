import { stat, readFile } from 'node:fs/promises';
import { defaultMeta } from '@ques/contracts/core';
import type { PageRendering } from '../pages/ssr.js';
import { composePage, type Screen } from '../pages/template.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Upstreams } from '../upstreams.js';
import { loadAnswerPage } from './answer-page.js';
import { renderMetaBlock, splitIndexHtml, withMetaBlock, type IndexParts } from './meta.js';
import { movedPath, type PageLoadContext } from './page-load.js';
import { loadProfilePage } from './profile-page.js';
import { matchSeoRoute, type Loaded, type PageRoute } from './route.js';
import { loadStatusPage, matchStatusRoute } from './status-page.js';
import { jsonGetter } from './upstream-json.js';

export { matchSeoRoute, type SeoRoute } from './route.js';

export interface SeoPage {
  status: 200 | 301 | 404;
  html: string;
  /** A 301's target path (issue 28: a handle renamed away); the caller adds the request's query string. */
  location?: string;
  /** The asker's status page (ADR 0058): `no-store`, `noindex`; never in this cache either. */
  private?: boolean;
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

/**
 * Renders the public pages from the services' data, with a small in-memory cache (one in-flight render per page,
 * however many visitors ask at once), evicted when what a page shows changes (`evict`, fed by the bus and the BFF's own writes: pages/events.ts).
 * With the web app's server render (`pages`), the whole page: profile, answer page, home and legal pages, and the
 * asker's private status page (rendered per request, never cached: ADR 0058); without it, the metadata block of
 * index.html for crawlers. Each page kind's data comes from its loader (profile-page.ts, answer-page.ts,
 * status-page.ts). Any failure gives a usable page: the spec's loading texts (and the app, loaded at once,
 * fetches), or the default block.
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
   * pages (the caller serves index.html). `viewer.timeZone`: the request's `ques_tz` cookie (status pages only).
   */
  async render(pathname: string, correlationId?: string, search = '', viewer: { timeZone?: string } = {}): Promise<SeoPage | null> {
    const pages = this.opts.pages;
    const screen = pages ? STATIC_PAGES[pathname] : undefined;
    // The status page only as a whole render: without one, web/serve.ts sends it the private shell.
    const matched = screen ? null : (matchSeoRoute(pathname) ?? (pages ? matchStatusRoute(pathname) : null));
    // A status page is the viewer's own (never cached): rendered in their zone when the request names one.
    const route = matched !== 'not-found' && matched?.kind === 'status' && viewer.timeZone ? { ...matched, timeZone: viewer.timeZone } : matched;
    if (!screen && !route) return null;
    const template = await this.loadTemplate().catch(() => null);
    if (!template?.parts) return null;
    if (route === 'not-found') return { status: 404, html: template.html };
    const page = (url: string, hydrateNow: boolean) =>
      this.page(pathname, screen ? { kind: 'static', screen } : route!, url, template.parts!, template.html, correlationId, hydrateNow);
    // Private, and live (a countdown, a payment being confirmed): rendered per request with its query (the app loads
    // once the page has painted: composePage's `hydrateAfterPaint`).
    if (route?.kind === 'status') return page(pathname + search, false);

    // Only the tag filter's variants of a page are cached; any other query (a checkout's return) is rendered once.
    const params = new URLSearchParams(search);
    const cacheable = pages ? [...params.keys()].every((key) => CACHED_QUERY.has(key)) : true;
    const variant = pages && params.has('tag') ? `?tag=${params.get('tag')}` : '';
    const key = screen ? `s:${screen}` : route!.kind === 'profile' ? `p:${route!.username}${variant}` : `q:${route!.username}:${route!.id}`;
    // A page with such a query has work for the app at once (a checkout's return tidies its address): no waiting for intent.
    const build = () => page(pages ? pathname + (cacheable ? variant : search) : '', !cacheable);
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
    route: PageRoute | { kind: 'static'; screen: Screen },
    url: string,
    parts: IndexParts,
    shellHtml: string,
    correlationId: string | undefined,
    hydrateNow: boolean,
  ): Promise<CachedPage> {
    const pageKey = route.kind === 'profile' ? `p:${route.username}` : route.kind === 'question' ? `q:${route.id}` : route.kind === 'status' ? 'status' : route.screen;
    let loaded: Loaded;
    try {
      loaded = route.kind === 'static' ? { status: 200, meta: null, values: {}, complete: true } : await this.load(route, correlationId);
    } catch (err) {
      this.opts.log.warn({ err, page: pageKey }, 'page data unavailable, serving the page without it');
      loaded = { status: 'unavailable', meta: null, values: {}, complete: false };
    }
    const owner = route.kind === 'profile' || route.kind === 'question' ? route : null;
    const names = {
      tags: [
        ...(owner ? [owner.username] : []),
        ...(route.kind === 'question' ? [route.id] : []),
        ...(loaded.ownerId ? [loaded.ownerId] : []),
        ...(loaded.questionIds ?? []),
      ].map((t) => t.toLowerCase()),
      ...(route.kind === 'status' ? { private: true } : {}),
    };
    // A renamed handle: the same path under the new one (the owner's id tag drops it if they rename again).
    if (loaded.status === 'moved' && owner)
      return { status: 301, html: '', location: movedPath(pathname, loaded.movedTo!), keep: 'ttl', ...names };
    const keep = !loaded.complete || loaded.status === 'unavailable' || route.kind === 'status' ? 'none' : loaded.status === 404 ? 'short' : 'ttl';
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
          hydrateAfterPaint: route.kind === 'status',
          noindex: route.kind === 'status',
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

  /** The page kind's loader, with the services' JSON for this request (only its correlation id goes along). */
  private load(route: PageRoute, correlationId: string | undefined): Promise<Loaded> {
    const { upstreams, log } = this.opts;
    const ctx: PageLoadContext = {
      origin: this.origin,
      get: jsonGetter(upstreams, this.timeoutMs, correlationId),
      has: (service) => upstreams.has(service),
      renders: Boolean(this.opts.pages),
      log,
    };
    if (route.kind === 'profile') return loadProfilePage(route.username, ctx);
    if (route.kind === 'question') return loadAnswerPage(route, ctx);
    return loadStatusPage(route, ctx);
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
