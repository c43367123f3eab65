import type {} from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { timeZoneFromCookie } from '@ques/contracts/core';
import { NOINDEX } from '../pages/template.js';
import type { SeoPage, SeoRenderer } from '../seo/renderer.js';
import type { WebBuild, WebFile } from './build.js';
import { cachedNegotiator } from './encoding.js';
import { WEB_ROUTE_SCHEMA } from './schema.js';

export interface WebRoutesOptions {
  build: WebBuild;
  /** Decides the HTML of the public profile and answer pages (share tags for crawlers); null serves the shell. */
  seo: SeoRenderer | null;
  /**
   * The operator console's pages (issue 18): whether this request may have them. Anyone else gets the app shell with
   * a 404 status (the app shows its not-found page and never loads the console).
   */
  opsPages?: { matches(path: string): boolean; allowed(request: FastifyRequest): Promise<boolean> };
}

/** The URL's path, percent-decoded; null when it cannot be decoded (no file has such a name). */
function pathOf(url: string): string | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A rendered page's bytes per encoding, each made once per cached page when first asked for (the renderer hands out
 * the same object until it re-renders): brotli at quality 9 (a few ms for a long profile, paid once per render, not
 * per visitor), gzip level 6.
 */
type PageCoding = 'br' | 'gzip' | 'identity';
const encodedPages = new WeakMap<SeoPage, Partial<Record<PageCoding, Promise<Buffer>>>>();
function encodedPage(page: SeoPage, coding: PageCoding): Promise<Buffer> {
  let copies = encodedPages.get(page);
  if (!copies) encodedPages.set(page, (copies = {}));
  const identity = () => (copies.identity ??= Promise.resolve(Buffer.from(page.html)));
  if (coding === 'identity') return identity();
  if (coding === 'br')
    return (copies.br ??= identity().then((body) =>
      brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    ));
  return (copies.gzip ??= identity().then((body) => gzipped(body, { level: 6 })));
}

/** Whether `If-None-Match` names this ETag (a list, `*`, or a weak form of it). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag || ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The web app from memory (see build.ts): built files by exact path, the best encoding the client accepts, 304 for
 * a matching ETag; the public pages through the crawler renderer; every other page the app shell. Nothing here
 * touches the disk, so a page request costs a map lookup.
 */
export function registerWebRoutes(app: FastifyInstance, { build, seo, opsPages }: WebRoutesOptions): void {
  const accepted = cachedNegotiator();
  /** The shell with a robots meta, for `/q/{token}` (made on first use). */
  let privateShell: Buffer | undefined;

  const sendFile = (request: FastifyRequest, reply: FastifyReply, file: WebFile): FastifyReply => {
    let representation = file.identity;
    if (file.br || file.gzip) {
      const coding = accepted(request.headers['accept-encoding']);
      // A client that takes brotli takes gzip as well in practice; a file may have only one of the two copies.
      if (coding === 'br') representation = file.br ?? file.gzip ?? file.identity;
      else if (coding === 'gzip') representation = file.gzip ?? file.identity;
    }
    void reply.headers(representation.headers);
    if (matches(request.headers['if-none-match'], representation.etag)) return reply.code(304).send();
    return reply.send(representation.body);
  };

  // Same-origin only: the app's files and pages need no CORS headers (and skip that work).
  app.get('/*', { config: { cors: false }, schema: WEB_ROUTE_SCHEMA }, async (request, reply) => {
    const path = pathOf(request.url);
    // Home is a rendered page too when the server renders pages (docs/adr/0024), not the shell file.
    const rendered = seo?.rendersPages && (path === '/' || path === '/index.html');
    const file = path === null || rendered ? undefined : build.files.get(path);
    if (file) return sendFile(request, reply, file);
    if (path === null || path.startsWith('/api/'))
      return reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' });
    // A hashed chunk that is not in this build (a page from an older deploy): a 404, never the HTML shell, which a
    // browser would try to run as a script.
    if (path.startsWith('/assets/'))
      return reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' });
    if (opsPages?.matches(path)) {
      const allowed = await opsPages.allowed(request);
      if (!allowed) void reply.status(404);
      const shell = build.shell;
      const coding = accepted(request.headers['accept-encoding']);
      const representation = coding === 'br' ? (shell.br ?? shell.gzip ?? shell.identity) : coding === 'gzip' ? (shell.gzip ?? shell.identity) : shell.identity;
      // Never a 304: whether the page exists depends on the session, not on the file.
      const { etag: _etag, ...headers } = representation.headers;
      void reply.headers({ ...headers, 'cache-control': 'no-store' });
      return reply.send(representation.body);
    }
    // Public pages: server-rendered (or, without the server render, the shell with their own title and share tags).
    const q = request.url.indexOf('?');
    const viewer = { timeZone: timeZoneFromCookie(request.headers.cookie) };
    const page = seo ? await seo.render(path, request.correlationId, q === -1 ? '' : request.url.slice(q), viewer) : null;
    // A handle renamed away (issue 28): permanently to the new one, the query kept.
    if (page?.status === 301) return reply.header('cache-control', 'public, max-age=300').redirect(page.location! + (q === -1 ? '' : request.url.slice(q)), 301);
    if (page) {
      const accepts = accepted(request.headers['accept-encoding']);
      const coding: PageCoding = accepts === 'br' || accepts === 'gzip' ? accepts : 'identity';
      const body = await encodedPage(page, coding);
      void reply
        .status(page.status)
        .header('cache-control', page.private ? 'no-store' : 'no-cache')
        .type('text/html; charset=utf-8')
        .header('vary', 'Accept-Encoding');
      // The asker's status page, rendered (ADR 0058): as private as the shell below.
      if (page.private) void reply.header('x-robots-tag', NOINDEX);
      if (coding !== 'identity') void reply.header('content-encoding', coding);
      return reply.send(body);
    }
    // A question's private status page (`/q/{token}`, issue 33) without the server render: never cached, never
    // indexed — header and meta.
    if (path.startsWith('/q/')) {
      privateShell ??= Buffer.from(build.shell.identity.body.toString('utf8').replace('<head>', `<head><meta name="robots" content="${NOINDEX}">`));
      return reply
        .headers({ 'cache-control': 'no-store', 'x-robots-tag': NOINDEX })
        .type('text/html; charset=utf-8')
        .send(privateShell);
    }
    // Client-side routes get the app shell.
    return sendFile(request, reply, build.shell);
  });
}
