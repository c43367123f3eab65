import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply } from 'fastify';

/*
 * On-the-fly compression of what the BFF relays (API JSON, the test-mode payment pages) and of the crawler pages.
 * The web app's files are compressed at build time instead (web/scripts/compress-dist.mjs, docs/adr/0015).
 */

/** Below this a compressed body saves less than the work and the headers cost. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Bodies up to this size (declared by the service's `content-length`) are relayed whole rather than streamed
 * (ADR 0035), and compressed in one synchronous call, with their compressed length (ADR 0043).
 */
export const BUFFERED_BODY_MAX = 64 * 1024;

/** JSON (`application/json`, `application/problem+json`, …), HTML and plain text. Never `text/event-stream`: a stream
 * of events must reach the browser as each one is written, not when a compressor's buffer fills. */
const COMPRESSIBLE =
  /^(?:application\/(?:[\w.-]+\+)?json|text\/(?:html|plain|csv|xml|css)|application\/xml)\s*(?:;|$)/i;

/** What an upstream response says about its body. */
export interface BodyInfo {
  method: string;
  statusCode: number;
  contentType: string | undefined;
  contentLength: string | undefined;
  contentEncoding: string | undefined;
}

/** Whether a relayed body is worth compressing: a compressible type, a body, not encoded yet, not known to be small. */
export function worthCompressing(body: BodyInfo): boolean {
  if (body.method === 'HEAD' || body.statusCode === 204 || body.statusCode === 304) return false;
  if (body.contentEncoding && body.contentEncoding !== 'identity') return false;
  if (!body.contentType || !COMPRESSIBLE.test(body.contentType)) return false;
  // Streamed through, so the size is only known when the service declared it; unknown means compress.
  const length = body.contentLength === undefined ? Number.NaN : Number(body.contentLength);
  return !(length < COMPRESS_THRESHOLD_BYTES);
}

/** Adds `Accept-Encoding` to the reply's Vary (keeping what is there), so caches keep the encodings apart. */
export function varyOnAcceptEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    void reply.header('vary', 'accept-encoding');
    return;
  }
  const values = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (!values.some((v) => v.toLowerCase() === 'accept-encoding'))
    void reply.header('vary', [...values, 'accept-encoding'].join(', '));
}

/**
 * `reply.compress()` on every route, used only where the BFF decides to (global: false): nothing is compressed behind
 * a route's back, and request bodies are never decompressed (the raw webhook and form routes forward exact bytes).
 * Brotli at quality 4 (the plugin's default; 11 costs ~20× the CPU for a few per cent), else gzip.
 *
 * A body the relay holds whole (≤ `BUFFERED_BODY_MAX`, every API answer) is compressed in one `brotliCompressSync` /
 * `gzipSync` call and sent with its `Content-Length` (ADR 0043). The plugin's default for that (`syncThreshold`) is
 * 8 kB on a two-core host, so a 20-row page (~15 kB) went through a zlib stream per response: a stream, a
 * `pipeline` with its AbortController, and `processChunk` was ~10 % of the BFF's CPU. Larger bodies, and every stream
 * (downloads, exports), still compress as a stream.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    syncThreshold: BUFFERED_BODY_MAX,
  });
}
