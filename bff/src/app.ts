import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { createHttpApp, registerJwt, requireUser, type EventBus } from '@ques/kit';
import { registerCompression } from './compression.js';
import { API_ROUTES, type ApiRoute } from './routes.js';
import { evictOnOwnWrites, watchPublicChanges } from './pages/events.js';
import { registerSitemap } from './pages/sitemap.js';
import { loadPageRendering } from './pages/ssr.js';
import { SeoRenderer } from './seo/renderer.js';
import { Upstreams, type ServiceName } from './upstreams.js';
import { loadWebBuild } from './web/build.js';
import { registerWebRoutes } from './web/serve.js';

export interface BffOptions {
  log: Logger;
  upstreams: Partial<Record<ServiceName, string>>;
  jwt: { publicKey: string; issuer: string; audience: string };
  /** The app's own origin (CORS allows only it). */
  publicOrigin: string;
  /** Built web app to serve at `/` (read into memory at start); skipped when missing. */
  webDist?: string;
  /**
   * The web app's server render (`web/dist-server`, docs/adr/0024); default: `dist-server` next to `webDist`. Public
   * pages are server-rendered when it is there; `false` turns that off (share tags only, as before).
   */
  webServerDist?: string | false;
  /**
   * The event bus (NATS in the distributed topology, the in-process bus in the embedded one): the BFF watches
   * identity's and questions' events to drop rendered pages as soon as what they show changes (pages/events.ts).
   */
  events?: EventBus;
  /** How long a rendered public page is reused (default 10 s; 0: rendered per request, as the bench measures). */
  pageCacheTtlMs?: number;
  /** Requests per minute per IP on credential routes. */
  authRateLimitPerMinute?: number;
  trustProxy?: boolean;
  routes?: ApiRoute[];
}

/** Builds the BFF (never listens: see main.ts / the launcher). */
export async function buildBff(opts: BffOptions): Promise<FastifyInstance> {
  const upstreams = new Upstreams(opts.upstreams);
  const app = createHttpApp({
    name: 'bff',
    log: opts.log,
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: 64 * 1024,
    ready: async () => {
      for (const name of ['identity', 'questions', 'payments', 'support'] as const) {
        if (!upstreams.has(name)) continue;
        const res = await upstreams.pool(name).request({ path: '/ready', method: 'GET' });
        await res.body.dump();
        if (res.statusCode !== 200) throw new Error(`${name} not ready`);
      }
    },
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cors, { origin: [opts.publicOrigin], credentials: false, exposedHeaders: ['Idempotent-Replayed'] });
  await app.register(rateLimit, { global: false });
  await registerJwt(app, opts.jwt);
  await registerCompression(app);

  // Uploads stream through to the service that owns them; the BFF never buffers or parses them.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  const authLimit = { max: opts.authRateLimitPerMinute ?? 30, timeWindow: '1 minute' };
  for (const route of opts.routes ?? API_ROUTES) {
    const options = {
      method: route.method,
      url: route.url,
      config: route.rateLimit === 'auth' ? { rateLimit: authLimit } : {},
      // Streamed uploads are never parsed here (no limit applies); raw bodies may be a little larger than JSON.
      ...(route.upload ? {} : { bodyLimit: route.raw ? 1024 * 1024 : 64 * 1024 }),
      preHandler: route.auth ? async (request: FastifyRequest) => void (await requireUser(request)) : undefined,
      handler: (request: FastifyRequest, reply: FastifyReply) => upstreams.forward(route.service, request, reply),
    };
    if (!route.raw) {
      app.route(options);
      continue;
    }
    // Byte for byte, whatever the content type: a webhook's signature covers the exact body; forms post urlencoded.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.route(options);
    });
  }

  const web = opts.webDist ? await loadWebBuild(opts.webDist, { publicOrigin: opts.publicOrigin }) : null;
  if (web) {
    if (web.uncompressed.length)
      app.log.warn(
        { count: web.uncompressed.length, examples: web.uncompressed.slice(0, 3) },
        'web build without brotli/gzip copies: these files go out uncompressed (build with npm run build -w @ques/web)',
      );
    const pages =
      opts.webServerDist === false ? null : await loadPageRendering(opts.webDist!, web.shellHtml, opts.webServerDist);
    if (!pages && opts.webServerDist !== false)
      app.log.warn('web build without its server render (web/dist-server): public pages carry share tags only');
    const seo = new SeoRenderer({
      upstreams,
      indexHtml: web.shellHtml,
      publicOrigin: opts.publicOrigin,
      log: app.log,
      pages,
      staleWhileRevalidate: Boolean(opts.events),
      ...(opts.pageCacheTtlMs === undefined ? {} : { cacheTtlMs: opts.pageCacheTtlMs }),
    });
    registerWebRoutes(app, { build: web, seo });
    evictOnOwnWrites(app, seo);
    if (opts.events) await watchPublicChanges(app, opts.events, seo);
  }

  if (upstreams.has('questions')) registerSitemap(app, { upstreams, publicOrigin: opts.publicOrigin });

  app.addHook('onClose', async () => upstreams.close());
  return app;
}
