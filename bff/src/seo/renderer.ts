import { stat, readFile } from 'node:fs/promises';
import { isUuid, type PublicProfile, type PublicQuestion } from '@ques/contracts';
import { profileMeta, questionMeta, STRUCTURED_DATA_QUESTIONS } from '@ques/contracts/core';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceName, Upstreams } from '../upstreams.js';
import { renderMetaBlock, splitIndexHtml, withMetaBlock, type IndexParts } from './meta.js';

/** The public pages whose HTML carries their own metadata (spec §2). */
export type SeoRoute =
  { kind: 'profile'; username: string } | { kind: 'question'; username: string; id: string };

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/**
 * `/ask/:username` and `/ask/:username/question/:id/:slug?` (same shapes as the web app's routes); `'not-found'`
 * for one of those shapes that cannot exist (undecodable name, an id that is no UUID); null for any other path.
 */
export function matchSeoRoute(pathname: string): SeoRoute | 'not-found' | null {
  const match = /^\/ask\/([^/]+)(?:\/question\/([^/]+)(?:\/[^/]+)?)?\/?$/i.exec(pathname);
  if (!match) return null;
  const username = decode(match[1]!)?.trim().toLowerCase();
  if (!username || username.length > 100) return 'not-found';
  if (match[2] === undefined) return { kind: 'profile', username };
  const id = decode(match[2]);
  return isUuid(id) ? { kind: 'question', username, id: id.toLowerCase() } : 'not-found';
}

export interface SeoPage {
  status: 200 | 404;
  html: string;
}

type Rendered =
  { status: 200; block: string; complete: boolean } | { status: 404 } | { status: 'unavailable' };

export interface SeoRendererOptions {
  upstreams: Upstreams;
  /** The app shell's HTML as served (web/build.ts reads it once, with the public origin applied). */
  indexHtml?: string;
  /** Or the built web app's index.html on disk: re-read when it changes (a rebuild while the BFF runs). */
  indexHtmlPath?: string;
  /** Absolute URLs (canonical, og:url, og:image) use the configured origin, never the request's Host header. */
  publicOrigin: string;
  log: FastifyBaseLogger;
  /** How long a rendered page is reused. Short: an owner's edit shows in share previews within seconds. */
  cacheTtlMs?: number;
  /** Unknown usernames and questions are remembered for less time. */
  notFoundTtlMs?: number;
  maxEntries?: number;
  /** Per upstream call; past it the page goes out with the default metadata. */
  timeoutMs?: number;
  now?: () => number;
}

class UpstreamError extends Error {}

/**
 * Renders the metadata block of the public pages from the services' data, with a small in-memory cache (one
 * in-flight render per page, however many visitors ask at once). Any failure gives the default block: the page
 * itself is the client-rendered app either way.
 */
export class SeoRenderer {
  private readonly cache = new Map<string, { expires: number; value: Promise<Rendered> }>();
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

  /** The page for `pathname`, or null when it is not one of the public pages (the caller serves index.html). */
  async render(pathname: string, correlationId?: string): Promise<SeoPage | null> {
    const route = matchSeoRoute(pathname);
    if (!route) return null;
    const template = await this.loadTemplate().catch(() => null);
    if (!template?.parts) return null;
    if (route === 'not-found') return { status: 404, html: template.html };
    const rendered = await this.cached(route, correlationId);
    switch (rendered.status) {
      case 200:
        return { status: 200, html: withMetaBlock(template.parts, rendered.block) };
      case 404:
        return { status: 404, html: template.html };
      case 'unavailable':
        return { status: 200, html: template.html };
      default: {
        const never: never = rendered;
        return never;
      }
    }
  }

  private cached(route: SeoRoute, correlationId: string | undefined): Promise<Rendered> {
    const key = route.kind === 'profile' ? `p:${route.username}` : `q:${route.username}:${route.id}`;
    const now = this.now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.cache.delete(key);

    const value = this.build(route, correlationId).catch((err: unknown): Rendered => {
      this.opts.log.warn({ err, page: key }, 'page metadata unavailable, serving the default');
      return { status: 'unavailable' };
    });
    // Cached while in flight, so concurrent visitors share one render; kept only if it is worth keeping.
    const entry = { expires: now + this.ttl, value };
    this.cache.set(key, entry);
    while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    void value.then((result) => {
      if (this.cache.get(key) !== entry) return;
      if (result.status === 'unavailable' || (result.status === 200 && !result.complete))
        this.cache.delete(key);
      else if (result.status === 404) entry.expires = this.now() + this.notFoundTtl;
    });
    return value;
  }

  private async build(route: SeoRoute, correlationId: string | undefined): Promise<Rendered> {
    const profileCall = () =>
      this.getJson<PublicProfile>(
        'identity',
        `/api/users/public/${encodeURIComponent(route.username)}`,
        correlationId,
      );
    if (route.kind === 'profile') {
      const [profile, answers] = await Promise.all([
        profileCall(),
        this.firstAnswers(route.username, correlationId),
      ]);
      if (!profile) return { status: 404 };
      // Without the answers the preview is still right; only the FAQ data is missing (and the page not cached).
      const meta = profileMeta(
        this.origin,
        profile,
        answers.filter((q) => belongsTo(q, profile)),
      );
      return { status: 200, block: renderMetaBlock(meta), complete: answers.complete };
    }
    if (!this.opts.upstreams.has('questions')) throw new UpstreamError('questions service not configured');
    const [profile, question] = await Promise.all([
      profileCall(),
      this.getJson<PublicQuestion>(
        'questions',
        `/api/questions/${encodeURIComponent(route.id)}`,
        correlationId,
      ),
    ]);
    if (!profile || !question || !belongsTo(question, profile) || !isPublished(question))
      return { status: 404 };
    return {
      status: 200,
      block: renderMetaBlock(questionMeta(this.origin, profile, question)),
      complete: true,
    };
  }

  /** The first answers of the public list (spec §7 `GET /api/questions?username=X&role=receiver`), newest first. */
  private async firstAnswers(
    username: string,
    correlationId: string | undefined,
  ): Promise<PublicQuestion[] & { complete: boolean }> {
    const none = Object.assign([] as PublicQuestion[], { complete: false });
    if (!this.opts.upstreams.has('questions')) return none;
    try {
      const query = new URLSearchParams({
        username,
        role: 'receiver',
        limit: String(STRUCTURED_DATA_QUESTIONS),
      });
      const list = await this.getJson<PublicQuestion[]>(
        'questions',
        `/api/questions?${query}`,
        correlationId,
      );
      const items = Array.isArray(list) ? list.filter(isPublished).slice(0, STRUCTURED_DATA_QUESTIONS) : [];
      return Object.assign(items, { complete: true });
    } catch (err) {
      this.opts.log.warn({ err, username }, 'public answers unavailable for the page metadata');
      return none;
    }
  }

  /** GET a service's JSON: the body on 200, null on 404, an error on anything else (or after the timeout). */
  private async getJson<T>(
    service: ServiceName,
    path: string,
    correlationId: string | undefined,
  ): Promise<T | null> {
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
      await res.body.dump();
      return null;
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new UpstreamError(`${service} answered ${res.statusCode} for ${path.split('?')[0]}`);
    }
    return (await res.body.json()) as T;
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

const belongsTo = (q: PublicQuestion, profile: PublicProfile) =>
  (q.toUsername ?? '').toLowerCase() === profile.username.toLowerCase();
const isPublished = (q: PublicQuestion) =>
  Boolean(q.answer?.trim()) && q.displayOnProfile !== false && !q.deletedByReceiver;
