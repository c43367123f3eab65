import type {} from '@fastify/compress';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline } from 'node:stream';
import { Pool } from 'undici';
import { AppError, badRequest } from '@ques/kit/errors';
import { BODY_MESSAGES, boundaryOf, multipartTailGuard, TruncatedUploadError } from './body.js';
import { varyOnAcceptEncoding, worthCompressing } from './compression.js';

export type ServiceName = 'identity' | 'questions' | 'payments' | 'support';

/** Request headers a service may see; everything else (cookies, hop-by-hop) stays at the edge. */
const FORWARDED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'user-agent', 'stripe-signature', 'idempotency-key', 'x-ques-device'];
/** Response headers passed back to the browser. */
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified', 'location', 'x-next-cursor', 'retry-after', 'idempotent-replayed'];

/** Keep-alive connection pools to each service (undici: no per-request connection setup, no fetch overhead). */
export class Upstreams {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(urls: Partial<Record<ServiceName, string>>) {
    for (const [name, url] of Object.entries(urls)) {
      if (url) this.pools.set(name as ServiceName, new Pool(url, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 }));
    }
  }

  has(name: ServiceName): boolean {
    return this.pools.has(name);
  }

  pool(name: ServiceName): Pool {
    const pool = this.pools.get(name);
    if (!pool) throw new AppError('UNAVAILABLE', 'This part of Ques is not available right now. Please try again later.');
    return pool;
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
    // A client that goes away mid-request (an upload it gave up on) must not leave the upstream call hanging.
    const abort = new AbortController();
    request.raw.once('close', () => {
      if (!request.raw.complete) abort.abort();
    });
    let response;
    try {
      response = await this.pool(service).request({
        path: request.url,
        method: request.method,
        headers,
        signal: abort.signal,
        body: body as any,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      });
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof TruncatedUploadError || (err as { cause?: unknown }).cause instanceof TruncatedUploadError)
        throw badRequest(BODY_MESSAGES.truncatedMultipart);
      request.log.warn({ err, service }, 'upstream unreachable');
      throw new AppError('UNAVAILABLE', 'Ques is having trouble right now. Please try again in a moment.');
    }
    void reply.status(response.statusCode);
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers[name];
      if (value !== undefined) void reply.header(name, value);
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
    // Big JSON (and the test-mode HTML pages) compressed as it streams through, when the client accepts it.
    if (worthCompressing(relayed)) {
      varyOnAcceptEncoding(reply);
      reply.compress(response.body);
      return reply;
    }
    return reply.send(response.body);
  }

  async close(): Promise<void> {
    // Graceful first; whatever is still in flight after a few seconds is cut.
    await Promise.all(
      [...this.pools.values()].map(async (pool) => {
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
