import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import {
  answerCard,
  answerImagePath,
  FEED_ENTRIES,
  isUuid,
  profileCard,
  profileImagePath,
  profilePath,
  shareCardHash,
  type PublicProfile,
  type PublicQuestion,
  type ShareCard,
} from '@ques/contracts';
import type { ServiceName, Upstreams } from '../upstreams.js';
import { cachedNegotiator } from '../web/encoding.js';
import { TaggedLru } from './cache.js';
import { atomFeed, isPublicAnswer } from './feed.js';
import { renderCardPng } from './image.js';

/*
 * Issue 15 reach routes of the BFF (docs/adr/0029):
 * - `/share/answer/{id}/{hash}.png` and `/share/profile/{username}/{hash}.png`: the share images, named by the hash of
 *   what they show (`@ques/contracts/core` reach.ts, the same function the page metadata uses). Served from an LRU
 *   (bytes-bounded) with `Cache-Control: public, no-cache` and the hash as ETag — never `immutable` (issue 33): a
 *   proxy revalidates, so an old URL cannot keep the old pixels. A stale hash (the answer changed) redirects to the
 *   current one; an unknown, deleted or unpublished answer or profile is a 404 — checked again when a cached image is
 *   older than 5 s, and at once on a change event. Archive profiles have images too.
 * - `/ask/{username}/feed.atom`: the Atom feed of the owner's public answers, with ETag and Last-Modified.
 * Both read only public calls (identity's public profile, questions' public list/answer), so they can never show
 * more than the public pages do; both are dropped from their caches by the same changes as the pages (`evict`).
 */

const IMAGE_FILE = /^([0-9a-f]{16})\.png$/;
/** Revalidated by every proxy and browser (a 304 for the same hash): see above. */
const SHARE_IMAGE_CACHE = 'public, no-cache';
/** A cached image is served without asking the services again for this long (the bus evicts it sooner). */
const RECHECK_MS = 5_000;
const NOT_FOUND = { message: 'Not found', code: 'NOT_FOUND' };

interface Bytes {
  bytes: number;
  body: Buffer;
  etag: string;
  /** When an image's answer or profile was last seen public with this hash. */
  checkedAt?: number;
  lastModified?: string;
  /** A feed's compressed copies (made once per cached feed; an image is not compressible). */
  br?: Buffer;
  gzip?: Buffer;
}


export interface ReachOptions {
  upstreams: Upstreams;
  publicOrigin: string;
  log: FastifyBaseLogger;
  /** How long a feed is reused without a change event (default 5 s; the bus evicts it at once). */
  feedTtlMs?: number;
  timeoutMs?: number;
}

export interface Reach {
  /** Drop images and feeds showing these (owner id or username, question id); `all` drops every feed. */
  evict(tags: readonly string[], all?: boolean): void;
}

export function registerReachRoutes(app: FastifyInstance, opts: ReachOptions): Reach {
  const origin = opts.publicOrigin.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 3_000;
  const images = new TaggedLru<Bytes>({ maxEntries: 2_000, maxBytes: 128 * 1024 * 1024 });
  const feeds = new TaggedLru<Bytes>({ maxEntries: 2_000, maxBytes: 64 * 1024 * 1024, ttlMs: opts.feedTtlMs ?? 5_000 });
  const rendering = new Map<string, Promise<Buffer>>();

  async function getJson<T>(service: ServiceName, path: string): Promise<T | null> {
    const res = await opts.upstreams.request(service, {
      path,
      method: 'GET',
      headers: { accept: 'application/json' },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.statusCode === 404 || res.statusCode === 400) {
      await res.body.dump();
      return null;
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw Object.assign(new Error(`${service} answered ${res.statusCode}`), { statusCode: 503 });
    }
    return (await res.body.json()) as T;
  }
  const profileOf = (username: string) =>
    getJson<PublicProfile>('identity', `/api/users/public/${encodeURIComponent(username)}`);

  /** The owner's avatar as a PNG data URI (identity serves WebP, which resvg does not draw); null: initials. */
  async function avatarOf(url: string): Promise<string | null> {
    if (!url.startsWith('/images/avatars/') || !opts.upstreams.has('identity')) return null;
    try {
      const res = await opts.upstreams.request('identity', {
        path: url,
        method: 'GET',
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return null;
      }
      const png = await sharp(Buffer.from(await res.body.arrayBuffer())).resize(208, 208, { fit: 'cover' }).png().toBuffer();
      return `data:image/png;base64,${png.toString('base64')}`;
    } catch (err) {
      opts.log.warn({ err }, 'share image: avatar unavailable, drawing initials');
      return null;
    }
  }

  const sendImage = (request: FastifyRequest, reply: FastifyReply, image: Bytes) => {
    void reply.header('cache-control', SHARE_IMAGE_CACHE).header('etag', image.etag).type('image/png');
    if (request.headers['if-none-match'] === image.etag) return reply.code(304).send();
    return reply.send(image.body);
  };

  async function serveImage(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    file: string,
    load: () => Promise<{ card: ShareCard; path: string; tags: string[] } | null>,
  ) {
    const hash = IMAGE_FILE.exec(file)?.[1];
    if (!hash) return reply.status(404).send(NOT_FOUND);
    const name = `${key}:${hash}`;
    const cached = images.get(name);
    if (cached && Date.now() - (cached.checkedAt ?? 0) < RECHECK_MS) return sendImage(request, reply, cached);
    const loaded = await load();
    // Hidden, private, deleted or no longer public: gone from here too (and from the cache).
    if (!loaded) {
      images.evict([name], false, true);
      return reply.status(404).send(NOT_FOUND);
    }
    const current = shareCardHash(loaded.card);
    // What the image would show changed: the current image (a share made earlier still gets a picture).
    if (current !== hash) {
      images.evict([name], false, true);
      return reply.header('cache-control', 'no-cache').redirect(loaded.path, 302);
    }
    if (cached) {
      cached.checkedAt = Date.now();
      return sendImage(request, reply, cached);
    }
    let png = rendering.get(name);
    if (!png) {
      png = avatarOf(loaded.card.avatarUrl).then((avatar) => renderCardPng(loaded.card, avatar));
      rendering.set(name, png);
      void png.finally(() => rendering.delete(name)).catch(() => undefined);
    }
    const body = await png;
    const image = { body, bytes: body.length, etag: `"${hash}"`, checkedAt: Date.now() };
    images.set(name, image, loaded.tags);
    return sendImage(request, reply, image);
  }

  app.get<{ Params: { id: string; file: string } }>('/share/answer/:id/:file', async (request, reply) => {
    const id = request.params.id.toLowerCase();
    if (!isUuid(id)) return reply.status(404).send(NOT_FOUND);
    return serveImage(request, reply, `a:${id}`, request.params.file, async () => {
      const question = await getJson<PublicQuestion>('questions', `/api/questions/${encodeURIComponent(id)}`);
      if (!question?.toUsername || !isPublicAnswer(question, question.toUsername)) return null;
      const profile = await profileOf(question.toUsername);
      if (!profile) return null;
      return {
        card: answerCard(profile, question),
        path: answerImagePath(profile, question),
        tags: [id, profile._id, profile.username],
      };
    });
  });

  app.get<{ Params: { username: string; file: string } }>('/share/profile/:username/:file', async (request, reply) => {
    const username = request.params.username.trim().toLowerCase();
    if (!username || username.length > 100) return reply.status(404).send(NOT_FOUND);
    return serveImage(request, reply, `p:${username}`, request.params.file, async () => {
      const profile = await profileOf(username);
      if (!profile) return null;
      return { card: profileCard(profile), path: profileImagePath(profile), tags: [profile._id, profile.username] };
    });
  });

  const accepted = cachedNegotiator();
  app.get<{ Params: { username: string } }>('/ask/:username/feed.atom', async (request, reply) => {
    const username = request.params.username.trim().toLowerCase();
    if (!username || username.length > 100) return reply.status(404).send(NOT_FOUND);
    let feed = feeds.get(username);
    if (!feed) {
      const profile = await profileOf(username);
      if (!profile) return reply.status(404).send(NOT_FOUND);
      // A handle renamed away (issue 28): readers follow a permanent redirect to the new feed.
      if (profile.username !== username)
        return reply.header('cache-control', 'public, max-age=300').redirect(`${profilePath(profile.username)}/feed.atom`, 301);
      const query = new URLSearchParams({ username, role: 'receiver', limit: String(FEED_ENTRIES) });
      const answers = (await getJson<PublicQuestion[]>('questions', `/api/questions?${query}`)) ?? [];
      const { xml, updated } = atomFeed(origin, profile, answers);
      const body = Buffer.from(xml);
      const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
      const gzip = gzipSync(body, { level: 6 });
      feed = {
        body,
        br,
        gzip,
        bytes: body.length + br.length + gzip.length,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
        lastModified: new Date(updated).toUTCString(),
      };
      feeds.set(username, feed, [profile._id, profile.username, ...answers.map((q) => q._id)]);
    }
    void reply
      // Readers revalidate every time (a 304 costs nothing): an answer edited or hidden shows at the next poll.
      .header('cache-control', 'public, no-cache')
      .header('etag', feed.etag)
      .header('last-modified', feed.lastModified!)
      .header('vary', 'Accept-Encoding')
      .type('application/atom+xml; charset=utf-8');
    const inm = request.headers['if-none-match'];
    const ims = request.headers['if-modified-since'];
    if (inm ? inm === feed.etag : ims && Date.parse(ims) >= Date.parse(feed.lastModified!))
      return reply.code(304).send();
    const coding = accepted(request.headers['accept-encoding']);
    if (coding === 'br' || coding === 'gzip') return reply.header('content-encoding', coding).send(feed[coding]);
    return reply.send(feed.body);
  });

  return {
    evict(tags, all = false) {
      images.evict(tags);
      feeds.evict(tags, all);
    },
  };
}
