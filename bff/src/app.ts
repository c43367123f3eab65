import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { ZodType } from 'zod';
import type { ApiCall } from '@ques/contracts';
import { Counter, createHttpApp, createMetrics, Gauge, instrumentHttp, registerJwt, requireOperator, requireUser, type EventBus, type Metrics } from '@ques/kit';
import { refuseLargeJson, refuseMalformedMultipart, registerJsonBodyParser, JSON_BODY_LIMIT } from './body.js';
import { registerCompression } from './compression.js';
import { registerHelmetHeaders, registerSecurityHeaders } from './headers.js';
import { documentedResponses, registerApiDocs } from './openapi.js';
import { registerEmbed } from './pages/embed.js';
import { evictOnOwnWrites, watchPublicChanges, type PublicCaches } from './pages/events.js';
import { registerSitemap } from './pages/sitemap.js';
import { isOpsPage, opsPageAllowed, registerOpsSession } from './ops.js';
import { loadPageRendering } from './pages/ssr.js';
import { registerReachRoutes, type Reach } from './reach/routes.js';
import { forwardedCalls } from './routes.js';
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
  /** What to forward (default: every declared call, see routes.ts). */
  calls?: readonly ApiCall[];
}

/** Answers that carry tokens: never cached, whatever the request carried. */
const CREDENTIAL_PATHS = ['/api/users', '/api/users/login', '/api/users/refresh-token'];

/** Multipart and raw bodies are forwarded unparsed: their body schema documents, params and query still validate. */
const bodyUnparsed: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data) => ({ value: data }) : validatorCompiler({ ...route, schema: route.schema as ZodType });

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
    bodyLimit: JSON_BODY_LIMIT,
    degraded: () => upstreams.degraded(),
  });
  instrumentHttp(app, metrics);

  registerHelmetHeaders(app, {
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
    // Sent only over HTTPS (registerSecurityHeaders), never on plain HTTP.
    strictTransportSecurity: false,
  });
  registerSecurityHeaders(app, { noStorePaths: CREDENTIAL_PATHS });
  await app.register(cors, { origin: [opts.publicOrigin], credentials: false, exposedHeaders: ['Idempotent-Replayed'] });
  await app.register(rateLimit, { global: false });
  await registerJwt(app, opts.jwt);
  await registerCompression(app);

  // JSON bodies: size and depth limits, no prototype keys, errors in words; the exact bytes are what is forwarded.
  registerJsonBodyParser(app);
  // Uploads stream through to the service that owns them; the BFF never buffers or parses them.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  const calls = opts.calls ?? forwardedCalls();
  await registerApiDocs(app, { calls, publicOrigin: opts.publicOrigin });

  const authLimit = { max: opts.authRateLimitPerMinute ?? 30, timeWindow: '1 minute' };
  for (const call of calls) await forwardCall(app, call, upstreams, authLimit);

  registerOpsSession(app, { publicOrigin: opts.publicOrigin });
  // Issue 15: share images and Atom feeds (docs/adr/0029), from the same public calls the pages read.
  const reach: Reach | null =
    upstreams.has('identity') && upstreams.has('questions')
      ? registerReachRoutes(app, { upstreams, publicOrigin: opts.publicOrigin, log: app.log })
      : null;

  const sitemap = upstreams.has('questions') ? registerSitemap(app, { upstreams, publicOrigin: opts.publicOrigin }) : null;
  // One change drops every public surface that may show it (issue 33): pages, sitemap, share images and feeds.
  const evictOthers = (tags: readonly string[], o: { profiles: boolean }) => {
    reach?.evict(tags, o.profiles);
    sitemap?.evict();
  };
  let publicCaches: PublicCaches = { evict: (tags, o) => evictOthers(tags, { profiles: !!o?.profiles }) };

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
      onEvict: evictOthers,
      ...(opts.pageCacheTtlMs === undefined ? {} : { cacheTtlMs: opts.pageCacheTtlMs }),
    });
    registerWebRoutes(app, { build: web, seo, opsPages: { matches: isOpsPage, allowed: (request) => opsPageAllowed(app, request) } });
    publicCaches = seo;
  }
  evictOnOwnWrites(app, publicCaches);
  if (opts.events) await watchPublicChanges(app, opts.events, publicCaches);

  // The embeddable ask button (issue 15): the only page other sites may frame (pages/embed.ts, docs/adr/0030).
  if (upstreams.has('identity')) registerEmbed(app, { upstreams, publicOrigin: opts.publicOrigin });

  app.addHook('onClose', async () => upstreams.close());
  return app;
}

/**
 * One declared call on the edge: the declaration's schemas validate params, query and JSON bodies (a bad call stops
 * here with the contract's message), the token or operator check runs before the body is read, and the request is
 * forwarded to the service that owns it.
 */
async function forwardCall(
  app: FastifyInstance,
  call: ApiCall,
  upstreams: Upstreams,
  authLimit: { max: number; timeWindow: string },
): Promise<void> {
  const kind = call.bodyKind ?? 'json';
  const options = {
    method: call.method,
    url: call.path,
    // The declaration's schemas: params, query and JSON bodies are validated here (a bad call stops at the edge
    // with the contract's message); responses are the service's, relayed as they come, so they document.
    schema: {
      ...call.schema,
      response: documentedResponses(call),
      operationId: call.id,
      summary: call.summary,
      ...(call.description ? { description: call.description } : {}),
      tags: [call.service],
      ...(kind === 'multipart' ? { consumes: ['multipart/form-data'] } : {}),
    },
    ...(kind === 'json' ? {} : { validatorCompiler: bodyUnparsed }),
    config: call.rateLimit === 'auth' ? { rateLimit: authLimit } : {},
    // Streamed uploads are never parsed here (no limit applies); raw bodies may be a little larger than JSON.
    ...(kind === 'multipart' ? {} : { bodyLimit: kind === 'raw' ? 1024 * 1024 : JSON_BODY_LIMIT }),
    // Before the body is read: a JSON body announced over the limit is refused (raw bodies have their own limit),
    // and a caller without a valid token gets 401, never a parse of what it sent.
    onRequest: [
      ...(kind === 'json' ? [async (request: FastifyRequest) => refuseLargeJson(request)] : []),
      ...(call.auth === 'required' ? [async (request: FastifyRequest) => void (await requireUser(request))] : []),
      // Operator calls: anyone but an operator gets the 404 of a path that does not exist (issue 18, ADR 0031).
      ...(call.auth === 'operator' ? [async (request: FastifyRequest) => void (await requireOperator(request))] : []),
    ],
    preValidation: kind === 'multipart' ? async (request: FastifyRequest) => refuseMalformedMultipart(request) : undefined,
    handler: (request: FastifyRequest, reply: FastifyReply) => upstreams.forward(call.service, request, reply),
  };
  if (kind !== 'raw') {
    app.route(options);
    return;
  }
  // Byte for byte, whatever the content type: a webhook's signature covers the exact body; forms post urlencoded.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.route(options);
  });
}
