import { NEXT_CURSOR_HEADER } from '@ques/contracts/core';
import type { ServiceName, Upstreams } from '../upstreams.js';

/** A service failed, answered something other than 200 or 404, or was too slow: the page goes out without its data. */
export class UpstreamError extends Error {}

export interface JsonAnswer<T> {
  /** The body on 200; null on 404. */
  body: T | null;
  /** A 404's message, when it had one. */
  message?: string;
  nextCursor: string | null;
}

/** GET one service's JSON for a page; bound to a request's correlation id and the renderer's timeout. */
export type GetJson = <T>(service: ServiceName, path: string) => Promise<JsonAnswer<T>>;

/**
 * GET a service's JSON: the body on 200, no body (and its message) on 404, an error otherwise or past the timeout.
 * Only `accept` and the correlation id go with it: a page's call carries nothing of the visitor's request.
 */
export function jsonGetter(upstreams: Upstreams, timeoutMs: number, correlationId: string | undefined): GetJson {
  return async <T>(service: ServiceName, path: string): Promise<JsonAnswer<T>> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (correlationId) headers['x-correlation-id'] = correlationId;
    const res = await upstreams.request(service, {
      path,
      method: 'GET',
      headers,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.statusCode === 404) {
      const error = (await res.body.json().catch(() => null)) as { message?: unknown } | null;
      return { body: null, message: typeof error?.message === 'string' ? error.message : undefined, nextCursor: null };
    }
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new UpstreamError(`${service} answered ${res.statusCode} for ${path.split('?')[0]}`);
    }
    const cursor = res.headers[NEXT_CURSOR_HEADER];
    return { body: (await res.body.json()) as T, nextCursor: typeof cursor === 'string' && cursor ? cursor : null };
  };
}
