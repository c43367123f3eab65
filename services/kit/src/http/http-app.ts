import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  type RawServerDefault,
  type RouteOptions,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  ResponseSerializationError,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z, ZodError } from 'zod';
import { isConnectionLoss } from '../db/connection-errors.js';
import { AppError, badRequest } from '../errors.js';
import { serializerCompiler } from './serializer.js';
import type { EventMetadata } from '../events/types.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Travels from the BFF through every service call and event (header `x-correlation-id`). */
    correlationId: string;
  }
}

export interface HttpAppOptions {
  name: string;
  log: Logger;
  /** Readiness probe: throw when the service can't serve (its database does not answer). */
  ready?: () => Promise<void>;
  /**
   * What runs degraded while the service still serves (the event bus away: the outbox keeps every event). Reported
   * by `/health` (status `degraded`, still 200: liveness must not restart a service for its bus) — never by `/ready`.
   */
  degraded?: () => string[];
  bodyLimit?: number;
  trustProxy?: FastifyServerOptions['trustProxy'];
}

const SAFE_ID = /^[\w.:-]{1,100}$/;
/** proxy-addr's names: 127/8 and ::1, 169.254/16 and fe80::/10, 10/8, 172.16/12, 192.168/16 and fc00::/7. */
export const SERVICE_TRUSTED_PROXIES = 'loopback, linklocal, uniquelocal';
/** Postgres: invalid byte sequence (NUL in text), untranslatable character, invalid text representation. */
const POSTGRES_BAD_TEXT = new Set(['22021', '22P05', '22P02']);

/** The caller's correlation id when it is a safe token, otherwise the request's own id. */
const correlationIdOf = (given: string | string[] | undefined, fallback: string) =>
  typeof given === 'string' && SAFE_ID.test(given) ? given : fallback;

/**
 * One log line per request (its completion, with status and time) instead of two, and none for the probes that
 * orchestrators poll every few seconds.
 */
class RequestLog extends LogController {
  constructor() {
    super({ disableRequestLogging: (request) => request.url === '/health' || request.url === '/ready' });
  }
  override incomingRequest(): void {
    // The completion line below carries the request too.
  }
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * The app every service and the BFF build on: Fastify typed by the zod type provider, so a route's `schema` (zod
 * schemas from `contracts`) validates params, querystring and body — `request.params`, `.query` and `.body` get their
 * types from it — and serialises the response (a reply that does not match its schema is a 500, logged; checked
 * cheaply when the schema transforms nothing, `serializer.ts`).
 */
export type HttpApp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

const registered = new WeakMap<object, RouteOptions[]>();

/** Every route registered on an app made by `createHttpApp` (collected by an onRoute hook), HEAD twins included. */
export function registeredRoutes(app: HttpApp | FastifyInstance): readonly RouteOptions[] {
  return registered.get(app) ?? [];
}

/** The kit's own probes, with their schemas. */
export const ZHealth = z.union([
  z.object({ status: z.literal('ok'), service: z.string() }).strict(),
  z.object({ status: z.literal('degraded'), service: z.string(), degraded: z.array(z.string()) }).strict(),
]);
export const ZReady = z.object({ status: z.literal('ready'), service: z.string() });
export const ZNotReady = z.object({ status: z.literal('not ready'), service: z.string(), reason: z.string() });

/** The Fastify app every service and the BFF start from: ids, logging, one error handler, health and readiness. */
export function createHttpApp(opts: HttpAppOptions): HttpApp {
  const health = (): z.infer<typeof ZHealth> => {
    const degraded = opts.degraded?.() ?? [];
    return degraded.length > 0 ? { status: 'degraded', service: opts.name, degraded } : { status: 'ok', service: opts.name };
  };
  let closing = false;
  const fastify = Fastify({
    // `GET /health` (liveness, polled by orchestrators and balancers) is answered by the HTTP server itself, before
    // Fastify's routing, request id, child logger, hooks and schema serialiser: the same body as the route below
    // (which `inject` and the route table still see), at the cost of a bare node:http answer. While the app closes,
    // Fastify answers it (503, `return503OnClosing`). Otherwise the server is the one Fastify would create.
    serverFactory: (handler) => {
      const server = createServer((req, res) => {
        if (req.url === '/health' && req.method === 'GET' && !closing) {
          const body = JSON.stringify(health());
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
          return;
        }
        handler(req, res);
      });
      // Fastify's defaults for the server it would have made (keepAliveTimeout 72 s; no request or socket timeout).
      server.keepAliveTimeout = 72_000;
      server.requestTimeout = 0;
      server.setTimeout(0);
      return server;
    },
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- pins the logger generic so the app is a plain FastifyInstance
    loggerInstance: opts.log as FastifyBaseLogger,
    logController: new RequestLog(),
    bodyLimit: opts.bodyLimit ?? 256 * 1024,
    // The BFF, in front of every service, sets `X-Forwarded-For` to the client's address it resolved (its own
    // TRUST_PROXY): a service believes that header only from the local machine or a private network, where the BFF
    // runs — never from a public address (ADR 0054: the guest limit's network bucket).
    trustProxy: opts.trustProxy ?? SERVICE_TRUSTED_PROXIES,
    requestIdHeader: 'x-request-id',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
    },
    return503OnClosing: true,
    // One child logger per request carrying both ids (rather than a second child made in a hook).
    childLoggerFactory(logger, bindings, childOpts, rawRequest) {
      const correlationId = correlationIdOf(rawRequest.headers['x-correlation-id'], String(bindings.reqId));
      (rawRequest as { correlationId?: string }).correlationId = correlationId;
      return logger.child({ ...bindings, correlationId }, childOpts);
    },
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const routes: RouteOptions[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => void routes.push(route as RouteOptions));

  app.decorateRequest('correlationId', '');
  app.addHook('onRequest', (request, reply, done) => {
    request.correlationId = (request.raw as { correlationId?: string }).correlationId ?? String(request.id);
    void reply.header('x-correlation-id', request.correlationId);
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ message: error.message, code: error.code });
    }
    if (isConnectionLoss(error)) {
      // The database connection dropped (restart, failover, terminated backend); the pool reconnects, so a retry may
      // well succeed.
      request.log.warn({ err: error }, 'request failed: database connection lost');
      return reply.status(503).header('retry-after', '1').send({ message: 'Ques is having trouble right now. Please try again in a moment.', code: 'UNAVAILABLE' });
    }
    // Text Postgres cannot store (a NUL byte, broken UTF-8) is the caller's mistake, not ours.
    if (POSTGRES_BAD_TEXT.has((error as { code?: string }).code ?? '')) {
      return reply.status(400).send({ message: 'The request contains characters that are not allowed.', code: 'BAD_REQUEST' });
    }
    if (error instanceof ZodError) {
      return reply.status(400).send({ message: error.issues[0]?.message ?? 'Invalid request', code: 'BAD_REQUEST' });
    }
    // A route's params/querystring/body schema refused the request: the contract's message (spec wording) is the answer.
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ message: error.validation[0]?.message ?? 'Invalid request', code: 'BAD_REQUEST' });
    }
    // Our reply broke its own response schema: a bug to fix, never a field silently dropped or sent unchecked.
    if (error instanceof ResponseSerializationError) {
      request.log.error({ err: error, issues: error.cause.issues, method: error.method, url: error.url }, 'response does not match its schema');
      return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status < 500) {
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type): safe to show.
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 429 ? 'TOO_MANY_REQUESTS' : 'BAD_REQUEST';
      return reply.status(status).send({ message: (error as Error).message, code });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ message: 'Something went wrong on our side. Please try again.', code: 'INTERNAL' });
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send({ message: 'Not found', code: 'NOT_FOUND' }));

  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.get('/health', { schema: { response: { 200: ZHealth } } }, async () => health());
  app.get('/ready', { schema: { response: { 200: ZReady, 503: ZNotReady } } }, async (_request, reply) => {
    try {
      await opts.ready?.();
      return { status: 'ready' as const, service: opts.name };
    } catch (err) {
      return reply.status(503).send({ status: 'not ready', service: opts.name, reason: String((err as Error).message) });
    }
  });

  return app;
}

/** Validates input with a contract schema; the first issue's message (spec wording) becomes the 400 message. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid request');
  return parsed.data;
}

/** Event metadata for a command issued by this request. */
export function metadataFrom(request: { correlationId: string }, actor: string | null): EventMetadata {
  return { correlationId: request.correlationId, causationId: null, actor };
}
