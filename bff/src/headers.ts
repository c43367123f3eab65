import type { FastifyInstance } from 'fastify';

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
  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS);
    const type = reply.getHeader('content-type');
    const json = typeof type === 'string' && /^application\/(.+\+)?json\b/i.test(type);
    const path = request.url.split('?', 1)[0]!;
    if (json && (request.headers.authorization !== undefined || noStorePaths.has(path)))
      void reply.header('cache-control', 'no-store');
    return payload;
  });
}
