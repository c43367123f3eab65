import type {} from '@fastify/compress';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { AppError, badRequest } from '@ques/kit/errors';
import { BODY_MESSAGES, boundaryOf, multipartTailGuard, TruncatedUploadError } from './body.js';
import { BUFFERED_BODY_MAX, varyOnAcceptEncoding, worthCompressing } from './compression.js';
import { discardRelayed, relay, type Relayed, type RequestOptions } from './relay.js';

export type ServiceName = 'identity' | 'questions' | 'payments' | 'support';

/** Request headers a service may see; everything else (cookies, hop-by-hop) stays at the edge. */
const FORWARDED_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'user-agent',
  'stripe-signature',
  'idempotency-key',
  'x-ques-device',
];
/** Response headers passed back to the browser. */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'cache-control',
  'etag',
  'last-modified',
  'location',
  'x-next-cursor',
  'retry-after',
  'idempotent-replayed',
  'content-disposition',
  'x-robots-tag',
];

export { BUFFERED_BODY_MAX };

/** Upstream URLs of one service: one URL, a comma-separated list (`http://a:3002,http://b:3002`), or an array. */
export type UpstreamUrls = string | readonly string[];

export function splitUrls(urls: UpstreamUrls): string[] {
  return (typeof urls === 'string' ? urls.split(',') : [...urls]).map((u) => u.trim()).filter(Boolean);
}

/** Errors that mean the instance could not be talked to (down, restarting, connection cut): try another one. */
const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Only these guarantee the request never reached the instance (safe to resend even a POST). */
const NEVER_SENT = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const codeOf = (err: unknown): string => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code && e.code !== 'UND_ERR_SOCKET' ? e.code : (e?.cause?.code ?? e?.code ?? '');
};
export const isConnectionError = (err: unknown) =>
  CONNECTION_ERRORS.has(codeOf(err)) || CONNECTION_ERRORS.has((err as { code?: string })?.code ?? '');

/** How long an instance that refused or dropped a connection is left out of the rotation. */
const DOWN_FOR_MS = 2_000;

/** One instance of a service: its keep-alive pool and whether it answered lately. */
export class UpstreamInstance {
  readonly pool: Pool;
  downUntil = 0;
  constructor(readonly url: string) {
    this.pool = new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
  }
  healthy(now = Date.now()): boolean {
    return this.downUntil <= now;
  }
}

/** The instances of one service, round-robin among the healthy ones (passive health: failures mark them down). */
export class UpstreamGroup {
  readonly instances: UpstreamInstance[];
  private next = 0;
  constructor(
    readonly service: ServiceName,
    urls: string[],
    private readonly downForMs = DOWN_FOR_MS,
  ) {
    this.instances = urls.map((url) => new UpstreamInstance(url));
  }

  /** The next healthy instance other than `except`; when none is healthy, the next one anyway (it may be back). */
  pick(except?: UpstreamInstance): UpstreamInstance | null {
    // One instance and nothing to avoid (every request of a single-instance deployment): it, healthy or not, as below.
    if (except === undefined && this.instances.length === 1) return this.instances[0]!;
    const candidates = this.instances.filter((i) => i !== except);
    if (candidates.length === 0) return null;
    const now = Date.now();
    for (let n = 0; n < candidates.length; n++) {
      const instance = candidates[(this.next + n) % candidates.length]!;
      if (instance.healthy(now)) {
        this.next = (this.next + n + 1) % candidates.length;
        return instance;
      }
    }
    // Everyone is marked down: the one marked down longest ago gets the chance.
    return candidates.reduce((a, b) => (b.downUntil < a.downUntil ? b : a));
  }

  markDown(instance: UpstreamInstance): void {
    instance.downUntil = Date.now() + this.downForMs;
  }

  markUp(instance: UpstreamInstance): void {
    instance.downUntil = 0;
  }

  anyHealthy(): boolean {
    const now = Date.now();
    return this.instances.some((i) => i.healthy(now));
  }
}

type ResponseData = Dispatcher.ResponseData;

export interface UpstreamsOptions {
  /** How long a failed instance stays out of the rotation (default 2 s). */
  downForMs?: number;
  /** Called for each resend on another instance (metrics). */
  onRetry?: (service: ServiceName, reason: string) => void;
}

/**
 * Keep-alive connection pools to every instance of each service (undici: no per-request connection setup). Requests
 * go round-robin to the healthy instances; an instance that refuses or drops a connection (or answers 503 while it
 * shuts down) is marked down for a moment, and an idempotent request (GET, HEAD) is resent once to another instance —
 * so a restarting instance costs no 5xx for reads (ADR 0027).
 */
export class Upstreams {
  private readonly groups = new Map<ServiceName, UpstreamGroup>();

  constructor(
    urls: Partial<Record<ServiceName, UpstreamUrls | undefined>>,
    private readonly opts: UpstreamsOptions = {},
  ) {
    for (const [name, value] of Object.entries(urls)) {
      const list = value ? splitUrls(value) : [];
      if (list.length > 0)
        this.groups.set(name as ServiceName, new UpstreamGroup(name as ServiceName, list, opts.downForMs));
    }
  }

  has(name: ServiceName): boolean {
    return this.groups.has(name);
  }

  group(name: ServiceName): UpstreamGroup {
    const group = this.groups.get(name);
    if (!group)
      throw new AppError(
        'UNAVAILABLE',
        'This part of Ques is not available right now. Please try again later.',
      );
    return group;
  }

  /** Every service and instance, with its health (metrics, `/health`). */
  list(): UpstreamGroup[] {
    return [...this.groups.values()];
  }

  /** Services none of whose instances answered lately (the BFF's `/health` says degraded, `/ready` does not care). */
  degraded(): string[] {
    return this.list()
      .filter((g) => !g.anyHealthy())
      .map((g) => `${g.service}: no instance answering`);
  }

  /**
   * One request to `service`, balanced and retried: GET and HEAD once more on another instance after a connection
   * error or a 503 from an instance shutting down; other methods only when the connection was never made.
   */
  async request(service: ServiceName, options: RequestOptions): Promise<ResponseData> {
    return this.balanced(
      service,
      options,
      (pool) => pool.request(options),
      (response) => response.body.dump(),
    );
  }

  /**
   * The balancing and the one retry of `request`, for any way of sending (`pool.request`, or the relay's own handler):
   * `send` makes the call on an instance's pool, `discard` drops the body of a 503 that is resent elsewhere.
   */
  private async balanced<R extends { statusCode: number }>(
    service: ServiceName,
    options: RequestOptions,
    send: (pool: Pool) => Promise<R>,
    discard: (response: R) => Promise<unknown>,
  ): Promise<R> {
    const group = this.group(service);
    const idempotent = options.method === 'GET' || options.method === 'HEAD';
    const first = group.pick()!;
    let response: R;
    try {
      response = await send(first.pool);
    } catch (err) {
      if (!isConnectionError(err)) throw err;
      group.markDown(first);
      const streamed =
        options.body !== undefined && typeof options.body === 'object' && !Buffer.isBuffer(options.body);
      const resendable = idempotent || (NEVER_SENT.has(codeOf(err)) && !streamed);
      const second = resendable ? group.pick(first) : null;
      if (!second || second === first) throw err;
      this.opts.onRetry?.(service, codeOf(err));
      return this.settle(group, second, await send(second.pool));
    }
    // A 503 from a service shutting down (Fastify's return503OnClosing) or not ready: another instance may serve a read.
    if (response.statusCode === 503 && idempotent && group.instances.length > 1) {
      const second = group.pick(first);
      if (second && second !== first) {
        await discard(response).catch(() => undefined);
        group.markDown(first);
        this.opts.onRetry?.(service, '503');
        return this.settle(
          group,
          second,
          await send(second.pool).catch((err: unknown) => {
            if (isConnectionError(err)) group.markDown(second);
            throw err;
          }),
        );
      }
    }
    return response;
  }

  private settle<R extends { statusCode: number }>(
    group: UpstreamGroup,
    instance: UpstreamInstance,
    response: R,
  ): R {
    if (response.statusCode !== 503) group.markUp(instance);
    return response;
  }

  /** Forwards the request to `service` at the same path and relays status, body and the headers that matter. */
  async forward(service: ServiceName, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const headers: Record<string, string> = {
      'x-correlation-id': request.correlationId,
      'x-request-id': String(request.id),
      'x-forwarded-for': request.ip,
    };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    let body: string | Buffer | NodeJS.ReadableStream | undefined;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      // A JSON body goes on as the exact bytes the client sent (body.ts kept them): never re-serialised.
      if (request.rawJson) body = request.rawJson;
      else if (Buffer.isBuffer(request.body) || typeof request.body === 'string') body = request.body;
      else {
        // Unparsed (a streamed upload): pass it on as it comes, with its declared length.
        const boundary = boundaryOf(request.headers['content-type']);
        // pipeline, not pipe: a client that goes away mid-upload must end the guarded stream too, or the upstream
        // call would wait for the rest of a body that never comes.
        body = boundary ? pipeline(request.raw, multipartTailGuard(boundary), () => undefined) : request.raw;
        const length = request.headers['content-length'];
        if (typeof length === 'string') headers['content-length'] = length;
      }
    }
    // A client that goes away mid-upload must not leave the upstream call hanging. Only a streamed body can be cut
    // short: a GET or HEAD is complete once its headers are read, and a JSON or raw body was read whole before it is
    // forwarded (`request.raw.complete`), so no AbortController is made for them (ADR 0047).
    const streamedUpload = body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body);
    let signal: AbortSignal | undefined;
    if (streamedUpload) {
      const abort = new AbortController();
      request.raw.once('close', () => {
        if (!request.raw.complete) abort.abort();
      });
      signal = abort.signal;
    }
    const options: RequestOptions = {
      path: request.url,
      method: request.method,
      headers,
      signal,
      body: body as any,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    };
    let response: Relayed;
    try {
      // A streamed upload goes through undici's `request` (its body stream, the abort signal above). Everything else
      // through `relay`: the same call on the same pool, read by a handler of the BFF's own (ADR 0047).
      response = streamedUpload
        ? await this.request(service, options)
        : await this.balanced(service, options, (pool) => relay(pool, options), discardRelayed);
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (
        err instanceof TruncatedUploadError ||
        (err as { cause?: unknown }).cause instanceof TruncatedUploadError
      )
        throw badRequest(BODY_MESSAGES.truncatedMultipart);
      request.log.warn({ err, service }, 'upstream unreachable');
      throw new AppError('UNAVAILABLE', 'Ques is having trouble right now. Please try again in a moment.');
    }
    const header = (name: string) => {
      const value = response.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const relayed = {
      method: request.method,
      statusCode: response.statusCode,
      contentType: header('content-type'),
      contentLength: header('content-length'),
      contentEncoding: header('content-encoding'),
    };
    // A body the service declared small (every JSON answer of the API: a page of a list is ~11 kB) is read whole and
    // sent on as the exact bytes, with its length: one write to the client instead of a chunked stream piped through
    // (ADR 0035). The service already validated and serialised it against its declared schema; the BFF neither parses
    // nor re-serialises it. Larger or undeclared bodies (downloads, exports, event streams) still stream through.
    // Not for a streamed upload: a service may answer it early (413, 415) and close the connection while the body is
    // still coming, which cuts the read of its answer short; streamed, the status and what arrived still go out.
    let relayedBody: Buffer | Readable;
    if (response.body instanceof Promise) {
      try {
        relayedBody = await response.body;
      } catch (err) {
        if (err instanceof AppError) throw err;
        request.log.warn({ err, service }, 'upstream answer cut short');
        throw new AppError('UNAVAILABLE', 'Ques is having trouble right now. Please try again in a moment.');
      }
    } else relayedBody = response.body;
    void reply.status(response.statusCode);
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers[name];
      if (value !== undefined) void reply.header(name, value);
    }
    // Big JSON (and the test-mode HTML pages) compressed on the way, when the client accepts it.
    if (worthCompressing(relayed)) {
      varyOnAcceptEncoding(reply);
      reply.compress(relayedBody);
      return reply;
    }
    return reply.send(relayedBody);
  }

  async close(): Promise<void> {
    // Graceful first; whatever is still in flight after a few seconds is cut.
    await Promise.all(
      this.list()
        .flatMap((g) => g.instances.map((i) => i.pool))
        .map(async (pool) => {
          const timer = setTimeout(() => void pool.destroy().catch(() => undefined), 3_000);
          try {
            await pool.close();
          } finally {
            clearTimeout(timer);
          }
        }),
    );
  }
}
