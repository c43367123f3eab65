import helmet from '@fastify/helmet';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { Counter, createHttpApp, createMetrics, Gauge, instrumentHttp, registerJwt, requireUser, type Metrics } from '@ques/kit';
import { registerCompression } from './compression.js';
import { API_ROUTES, type ApiRoute } from './routes.js';
import { SeoRenderer } from './seo/renderer.js';
import { Upstreams, type ServiceName, type UpstreamUrls } from './upstreams.js';
import { loadWebBuild } from './web/build.js';
import { registerWebRoutes } from './web/serve.js';

export interface BffOptions {
  log: Logger;
  /** Each service's URL, or several (a comma-separated list or an array): the BFF balances them (ADR 0027). */
  upstreams: Partial<Record<ServiceName, UpstreamUrls | undefined>>;
  /** Where the BFF's series go (served by main.ts on METRICS_PORT); default: a registry of its own. */
  metrics?: Metrics;
  jwt: { publicKey: string; issuer: string; audience: string };
  /** The app's own origin (CORS allows only it). */
  publicOrigin: string;
  /** Built web app to serve at `/` (read into memory at start); skipped when missing. */
  webDist?: string;
  /** Requests per minute per IP on credential routes. */
  authRateLimitPerMinute?: number;
  trustProxy?: boolean;
  routes?: ApiRoute[];
}

/** Builds the BFF (never listens: see main.ts / the launcher). */
export async function buildBff(opts: BffOptions): Promise<FastifyInstance> {
  const metrics = opts.metrics ?? createMetrics('bff', { defaultMetrics: false });
  const retries = new Counter({
    name: 'ques_bff_upstream_retries_total',
    help: 'Requests resent to another instance of a service, by service and reason.',
    labelNames: ['upstream', 'reason'],
    registers: [metrics.registry],
  });
  const upstreams = new Upstreams(opts.upstreams, { onRetry: (service, reason) => retries.inc({ upstream: service, reason }) });
  new Gauge({
    name: 'ques_bff_upstream_up',
    help: '1 while an instance of a service is in the BFF rotation, 0 while it is left out after failing.',
    labelNames: ['upstream', 'instance'],
    registers: [metrics.registry],
    collect() {
      for (const group of upstreams.list())
        for (const instance of group.instances) this.set({ upstream: group.service, instance: instance.url }, instance.healthy() ? 1 : 0);
    },
  });
  // Ready means the BFF itself can route: it never cascades from an upstream (one service's outage, let alone its
  // bus, must not take every page off the load balancer). Upstreams without a healthy instance show in /health.
  const app = createHttpApp({
    name: 'bff',
    log: opts.log,
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: 64 * 1024,
    degraded: () => upstreams.degraded(),
  });
  instrumentHttp(app, metrics);

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
    const seo = new SeoRenderer({ upstreams, indexHtml: web.shellHtml, publicOrigin: opts.publicOrigin, log: app.log });
    registerWebRoutes(app, { build: web, seo });
  }

  app.addHook('onClose', async () => upstreams.close());
  return app;
}
