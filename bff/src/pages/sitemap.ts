import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  NEXT_CURSOR_HEADER,
  SITEMAP_PAGE_SIZE,
  type SitemapAnswer,
  type SitemapProfile,
} from '@ques/contracts';
import { profilePath, questionPath } from '@ques/contracts/core';
import type { Upstreams } from '../upstreams.js';

/*
 * The XML sitemap (docs/adr/0024; robots.txt names it): `/sitemap.xml` is a sitemap index, one file per page of
 * public profiles and of answered public questions (`/sitemap/profiles.xml?after=…`, `/sitemap/answers.xml?after=…`;
 * each at most SITEMAP_PAGE_SIZE URLs, the protocol allows 50,000), read from questions' listing calls
 * (contracts/src/api/sitemap.ts). Kept in memory for a few seconds at most, and dropped by the same changes as the
 * public pages (`evict`, pages/events.ts): a hidden, redacted, private or deleted answer leaves it at once (issue 33).
 */

const KINDS = { profiles: '/api/sitemap/profiles', answers: '/api/sitemap/answers' } as const;
type Kind = keyof typeof KINDS;
/** The safety net when no change event comes (a BFF without the bus): a hidden answer leaves within 5 s. */
const TTL_MS = 5_000;
const XML = 'application/xml; charset=utf-8';
/** A very large site is listed up to this many files per kind (then the index ends; crawlers still follow links). */
const MAX_FILES = 200;

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A sitemap file (pure). */
export function urlSet(entries: { loc: string; lastmod?: string }[]): string {
  const urls = entries.map(
    (e) => `<url><loc>${escapeXml(e.loc)}</loc>${e.lastmod ? `<lastmod>${escapeXml(e.lastmod)}</lastmod>` : ''}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** The sitemap index (pure). */
export function sitemapIndex(locations: string[]): string {
  const maps = locations.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${maps.join('\n')}\n</sitemapindex>\n`;
}

export function profileEntries(origin: string, items: SitemapProfile[]) {
  return items.map((p) => ({ loc: `${origin}${profilePath(p.username)}`, lastmod: p.updatedAt }));
}
export function answerEntries(origin: string, items: SitemapAnswer[]) {
  return items.map((a) => ({ loc: `${origin}${questionPath(a.username, a.id, a.question)}`, lastmod: a.updatedAt }));
}

export interface Sitemap {
  /** Drops every cached file (a public change: which files list it is not worth working out). */
  evict(): void;
}

export function registerSitemap(app: FastifyInstance, opts: { upstreams: Upstreams; publicOrigin: string }): Sitemap {
  const origin = opts.publicOrigin.replace(/\/+$/, '');
  const cache = new Map<string, { expires: number; body: Promise<string> }>();
  const cached = (key: string, make: () => Promise<string>) => {
    const hit = cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.body;
    const body = make();
    cache.set(key, { expires: Date.now() + TTL_MS, body });
    body.catch(() => cache.delete(key));
    if (cache.size > 1_000) cache.delete(cache.keys().next().value!);
    return body;
  };

  async function page<T>(kind: Kind, after: string | undefined): Promise<Page<T>> {
    const query = new URLSearchParams({ limit: String(SITEMAP_PAGE_SIZE), ...(after ? { cursor: after } : {}) });
    const res = await opts.upstreams.request('questions', {
      path: `${KINDS[kind]}?${query}`,
      method: 'GET',
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw Object.assign(new Error(`questions answered ${res.statusCode} for ${KINDS[kind]}`), { statusCode: res.statusCode === 400 ? 404 : 503 });
    }
    const cursor = res.headers[NEXT_CURSOR_HEADER];
    return { items: (await res.body.json()) as T[], nextCursor: typeof cursor === 'string' && cursor ? cursor : null };
  }

  /** Every file of a kind: the first page, then one per cursor (walked through the listing). */
  async function files(kind: Kind): Promise<string[]> {
    const locations = [`${origin}/sitemap/${kind}.xml`];
    let cursor = (await page<unknown>(kind, undefined)).nextCursor;
    while (cursor && locations.length < MAX_FILES) {
      locations.push(`${origin}/sitemap/${kind}.xml?after=${encodeURIComponent(cursor)}`);
      cursor = (await page<unknown>(kind, cursor)).nextCursor;
    }
    return locations;
  }

  const send = (reply: FastifyReply, body: string) => {
    // Revalidated at every fetch: a proxy must not keep listing an answer that was hidden.
    void reply.header('cache-control', 'public, no-cache').type(XML);
    reply.compress(body);
    return reply;
  };

  app.get('/sitemap.xml', async (_request, reply) => {
    if (!opts.upstreams.has('questions')) return send(reply, sitemapIndex([]));
    const body = await cached('index', async () =>
      sitemapIndex([...(await files('profiles')), ...(await files('answers'))]),
    );
    return send(reply, body);
  });

  app.get<{ Params: { file: string }; Querystring: { after?: string } }>(
    '/sitemap/:file',
    async (request, reply) => {
      const kind = /^(profiles|answers)\.xml$/.exec(request.params.file)?.[1] as Kind | undefined;
      const after = typeof request.query.after === 'string' ? request.query.after : undefined;
      if (!kind || !opts.upstreams.has('questions') || (after !== undefined && after.length > 300))
        return reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' });
      const body = await cached(`${kind}:${after ?? ''}`, async () =>
        kind === 'profiles'
          ? urlSet(profileEntries(origin, (await page<SitemapProfile>('profiles', after)).items))
          : urlSet(answerEntries(origin, (await page<SitemapAnswer>('answers', after)).items)),
      );
      return send(reply, body);
    },
  );
  return { evict: () => cache.clear() };
}
