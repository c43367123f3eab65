import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { ContentCoding } from './encoding.js';
import { withPublicOrigin } from './html.js';
import { robotsTxt } from './robots.js';

/** One encoding of a file, with every response header precomputed (no work per request but the lookup). */
export interface Representation {
  body: Buffer;
  etag: string;
  headers: Readonly<Record<string, string>>;
}

/** A servable file: its original bytes and, for text, the brotli and gzip copies that are smaller. */
export interface WebFile {
  identity: Representation;
  br?: Representation;
  gzip?: Representation;
}

/** The built web app, read once at start and served from memory. */
export interface WebBuild {
  /** By URL path (`/assets/index-abc.js`); `/` and `/index.html` are the app shell. */
  files: ReadonlyMap<string, WebFile>;
  /** index.html as served: the SPA fallback for every client route. */
  shell: WebFile;
  /** The shell's HTML (public origin applied): the template of the crawler pages (seo/renderer.ts). */
  shellHtml: string;
  /** Text files of 1 KB or more that came without a brotli copy (a build that skipped compress-dist.mjs). */
  uncompressed: string[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
};
/** The extensions web/scripts/compress-dist.mjs writes .br/.gz copies for. */
const TEXT = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.map',
  '.webmanifest',
  '.txt',
  '.xml',
  '.svg',
]);
/** Vite's content-hashed output: a new name for every change, so browsers may keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (the shell, favicon, images in public/) is revalidated with its ETag. */
const REVALIDATE = 'no-cache';
/** Smaller than this, a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 1024;

const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64url').slice(0, 22);

function representation(body: Buffer, etag: string, headers: Record<string, string>): Representation {
  return { body, etag, headers: Object.freeze({ ...headers, etag }) };
}

/**
 * A file's representations. Each encoding has its own ETag (the same tag for different bytes would let a cache
 * hand gzip to a client that asked for brotli); `Vary: Accept-Encoding` on all of them when there is a choice.
 */
function webFile(
  body: Buffer,
  contentType: string,
  cacheControl: string,
  encoded: Partial<Record<ContentCoding, Buffer>>,
): WebFile {
  const hash = hashOf(body);
  const varies = Boolean(encoded.br ?? encoded.gzip);
  const base: Record<string, string> = { 'content-type': contentType, 'cache-control': cacheControl };
  if (varies) base.vary = 'Accept-Encoding';
  const file: WebFile = { identity: representation(body, `"${hash}"`, base) };
  if (encoded.br) file.br = representation(encoded.br, `"${hash}-br"`, { ...base, 'content-encoding': 'br' });
  if (encoded.gzip)
    file.gzip = representation(encoded.gzip, `"${hash}-gz"`, { ...base, 'content-encoding': 'gzip' });
  return file;
}

/** Brotli (quality 11) and gzip (level 9) copies made here, for the few files the BFF changes at start. */
function compressNow(body: Buffer): Partial<Record<ContentCoding, Buffer>> {
  if (body.length < MIN_COMPRESS_BYTES) return {};
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gzip = gzipSync(body, { level: 9 });
  return { ...(br.length < body.length ? { br } : {}), ...(gzip.length < body.length ? { gzip } : {}) };
}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Every file under `dir`, skipping dot-entries (Vite's `.vite/manifest.json` is for tools, not visitors). */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(
      (path) =>
        !relative(dir, path)
          .split(sep)
          .some((part) => part.startsWith('.')),
    );
}

export interface LoadWebBuildOptions {
  /** Absolute URLs in the shell (canonical, og:url, og:image) and the robots.txt sitemap line use it. */
  publicOrigin: string;
}

/**
 * Reads the built web app (`web/dist`) into memory once, with the build's .br/.gz copies: serving then never touches
 * the disk. Null when there is no build (`index.html` missing). A rebuild is picked up by restarting the BFF, which is
 * also what keeps the shell and the hashed chunks it names from one and the same build.
 */
export async function loadWebBuild(dir: string, opts: LoadWebBuildOptions): Promise<WebBuild | null> {
  const indexPath = join(dir, 'index.html');
  if (!(await stat(indexPath).catch(() => null))?.isFile()) return null;

  const files = new Map<string, WebFile>();
  const uncompressed: string[] = [];
  for (const path of await listFiles(dir)) {
    if (path.endsWith('.br') || path.endsWith('.gz') || path === indexPath) continue;
    const url = `/${relative(dir, path).split(sep).join('/')}`;
    const ext = extname(path).toLowerCase();
    const encoded: Partial<Record<ContentCoding, Buffer>> = {};
    if (TEXT.has(ext)) {
      const [br, gzip] = await Promise.all([readIfPresent(`${path}.br`), readIfPresent(`${path}.gz`)]);
      if (br) encoded.br = br;
      if (gzip) encoded.gzip = gzip;
    }
    const cacheControl = url.startsWith('/assets/') ? IMMUTABLE : REVALIDATE;
    const body = await readFile(path);
    if (TEXT.has(ext) && !encoded.br && body.length >= MIN_COMPRESS_BYTES) uncompressed.push(url);
    files.set(url, webFile(body, TYPES[ext] ?? 'application/octet-stream', cacheControl, encoded));
  }

  // The shell and robots.txt depend on the configured origin, so they are made here rather than at build time.
  const shellHtml = withPublicOrigin(await readFile(indexPath, 'utf8'), opts.publicOrigin);
  const shellBytes = Buffer.from(shellHtml);
  const shell = webFile(shellBytes, TYPES['.html']!, REVALIDATE, compressNow(shellBytes));
  files.set('/', shell);
  files.set('/index.html', shell);
  const robots = Buffer.from(robotsTxt(opts.publicOrigin));
  files.set('/robots.txt', webFile(robots, TYPES['.txt']!, REVALIDATE, compressNow(robots)));
  return { files, shell, shellHtml, uncompressed };
}
