import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { shareCardHash, type ShareCard } from '@ques/contracts';
import type { Upstreams } from '../upstreams.js';
import { NOT_FOUND, type Bytes, type TaggedLru } from './cache.js';
import { renderCardPng } from './image.js';

const IMAGE_FILE = /^([0-9a-f]{16})\.png$/;
/** Revalidated by every proxy and browser (a 304 for the same hash): see ./routes.ts. */
const SHARE_IMAGE_CACHE = 'public, no-cache';
/** A cached image is served without asking the services again for this long (the bus evicts it sooner). */
const RECHECK_MS = 5_000;

/** A share image's request served from the cache, rechecked, redirected to the current hash, or rendered once. */
export function shareImageServer({
  upstreams,
  log,
  timeoutMs,
  images,
}: {
  upstreams: Upstreams;
  log: FastifyBaseLogger;
  timeoutMs: number;
  images: TaggedLru<Bytes>;
}) {
  const rendering = new Map<string, Promise<Buffer>>();

  /** The owner's avatar as a PNG data URI (identity serves WebP, which resvg does not draw); null: initials. */
  async function avatarOf(url: string): Promise<string | null> {
    if (!url.startsWith('/images/avatars/') || !upstreams.has('identity')) return null;
    try {
      const res = await upstreams.request('identity', {
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
      const png = await sharp(Buffer.from(await res.body.arrayBuffer()))
        .resize(208, 208, { fit: 'cover' })
        .png()
        .toBuffer();
      return `data:image/png;base64,${png.toString('base64')}`;
    } catch (err) {
      log.warn({ err }, 'share image: avatar unavailable, drawing initials');
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

  return serveImage;
}
