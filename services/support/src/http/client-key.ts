import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Whose `x-forwarded-for` is believed: `none` (the service faces clients directly), `loopback` (the BFF runs on the
 * same host, the embedded default) or `all` (only the BFF can reach the service, as in docker compose).
 */
export type TrustProxy = 'none' | 'loopback' | 'all';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The client a request counts against for rate limiting: the address the trusted proxy (the BFF) saw, i.e. the
 * last `x-forwarded-for` entry, else the socket's peer. Entries a client wrote itself sit further left and are ignored.
 */
export function clientKey(trust: TrustProxy): (request: FastifyRequest) => string {
  return (request) => {
    const peer = request.socket?.remoteAddress ?? request.ip;
    const trusted = trust === 'all' || (trust === 'loopback' && !!peer && LOOPBACK.has(peer));
    if (trusted) {
      const header = request.headers['x-forwarded-for'];
      const value = Array.isArray(header) ? header.join(',') : header;
      const last = value
        ?.split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .at(-1);
      if (last && isIP(last)) return last;
    }
    return peer ?? 'unknown';
  };
}
