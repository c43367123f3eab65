import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FEED_ENTRIES, profilePath, type PublicProfile, type PublicQuestion } from '@ques/contracts';
import type { ServiceName } from '../upstreams.js';
import { cachedNegotiator } from '../web/encoding.js';
import type { TaggedLru } from './cache.js';
import { atomFeed } from './feed.js';
import { NOT_FOUND, type Bytes } from './cache.js';

/** What the feed route reads through: the reach routes' cache and upstream calls (./routes.ts). */
export interface FeedDeps {
  origin: string;
  feeds: TaggedLru<Bytes>;
  profileOf: (username: string) => Promise<PublicProfile | null>;
  getJson: <T>(service: ServiceName, path: string) => Promise<T | null>;
}

/** `/ask/{username}/feed.atom`: the owner's public answers as Atom, cached with its compressed copies, ETag and Last-Modified. */
export function feedRoute({ origin, feeds, profileOf, getJson }: FeedDeps) {
  const accepted = cachedNegotiator();
  return async (request: FastifyRequest<{ Params: { username: string } }>, reply: FastifyReply) => {
    const username = request.params.username.trim().toLowerCase();
    if (!username || username.length > 100) return reply.status(404).send(NOT_FOUND);
    let feed = feeds.get(username);
    if (!feed) {
      const profile = await profileOf(username);
      if (!profile) return reply.status(404).send(NOT_FOUND);
      // A handle renamed away (issue 28): readers follow a permanent redirect to the new feed.
      if (profile.username !== username)
        return reply
          .header('cache-control', 'public, max-age=300')
          .redirect(`${profilePath(profile.username)}/feed.atom`, 301);
      const query = new URLSearchParams({ username, role: 'receiver', limit: String(FEED_ENTRIES) });
      const answers = (await getJson<PublicQuestion[]>('questions', `/api/questions?${query}`)) ?? [];
      const { xml, updated } = atomFeed(origin, profile, answers);
      const body = Buffer.from(xml);
      const br = brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
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
    if (coding === 'br' || coding === 'gzip')
      return reply.header('content-encoding', coding).send(feed[coding]);
    return reply.send(feed.body);
  };
}
