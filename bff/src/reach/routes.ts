import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { answerCard, answerImagePath, isUuid, profileCard, profileImagePath, type PublicProfile, type PublicQuestion } from '@ques/contracts';
import type { ServiceName, Upstreams } from '../upstreams.js';
import { NOT_FOUND, TaggedLru, type Bytes } from './cache.js';
import { isPublicAnswer } from './feed.js';
import { feedRoute } from './feed-route.js';
import { shareImageServer } from './share-images.js';

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

  const serveImage = shareImageServer({ upstreams: opts.upstreams, log: opts.log, timeoutMs, images });

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

  app.get<{ Params: { username: string } }>('/ask/:username/feed.atom', feedRoute({ origin, feeds, profileOf, getJson }));

  return {
    evict(tags, all = false) {
      images.evict(tags);
      feeds.evict(tags, all);
    },
  };
}
