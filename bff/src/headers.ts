import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Powerful browser features no page of Ques uses: refused for the app and anything it embeds. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** Two years, subdomains included: sent only on responses to requests that came over HTTPS. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Response headers the BFF adds to everything it answers:
 * - `Permissions-Policy` (the features above off);
 * - `Strict-Transport-Security` only when the request came over HTTPS (`request.protocol`: the socket, or
 *   `X-Forwarded-Proto` from a trusted proxy when `trustProxy` is on), never on plain HTTP;
 * - `Cache-Control: no-store` on JSON answers to requests with credentials (an `Authorization` header) and on the
 *   credential calls' answers (tokens), so no shared or browser cache keeps personal data.
 */
export function registerSecurityHeaders(app: FastifyInstance, opts: { noStorePaths: readonly string[] }): void {
  const noStorePaths = new Set(opts.noStorePaths);
  // A callback hook, not an async one: it runs on every response and never waits for anything.
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
    const type = reply.getHeader('content-type');
    const json = typeof type === 'string' && /^application\/(.+\+)?json\b/i.test(type);
    if (json && (request.headers.authorization !== undefined || noStorePaths.has(request.url.split('?', 1)[0]!)))
      void reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

/**
 * The headers helmet sets for `options`, worked out once. Helmet's middleware (and @fastify/helmet, which built a new
 * one on every request: every CSP directive parsed again per request) only ever sets fixed values for static
 * options, so the BFF computes them at start and sets the same map on each reply (ADR 0035).
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      if (typeof value !== 'string') throw new Error(`helmet header ${name} is not a fixed string`);
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  // Helmet throws on a bad option (since 8.1 it no longer hands errors to `next`).
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return Object.freeze(headers);
}

/**
 * Helmet's security headers (strict CSP, `X-Frame-Options`, `X-Content-Type-Options`, …) on every response, set
 * before routing so a route may replace one (the embed card's CSP) or remove one (its `X-Frame-Options`).
 */
export function registerHelmetHeaders(app: FastifyInstance, options: Readonly<HelmetOptions>): void {
  const headers = helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
}
