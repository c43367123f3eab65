import { timingSafeEqual } from 'node:crypto';
import { INTERNAL_TOKEN_REQUIRED } from '@ques/contracts';
import { unauthorized } from '../errors.js';
import type { HttpApp } from './http-app.js';

/** The header every `/internal/*` call carries its token in. */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

/** The headers a caller of another service's `/internal/*` call sends. */
export const internalCallHeaders = (token: string): Record<string, string> => ({ [INTERNAL_TOKEN_HEADER]: token });

/**
 * Every route of `app` under `/internal/` answers only a caller that sends `token` (issue 33, ADR 0060): one hook, so
 * an internal route added later cannot forget the check. The route's pattern is matched, not the raw URL, so no
 * spelling of the path slips past; the token is compared in constant time. Missing or wrong: 401.
 */
export function guardInternalCalls(app: HttpApp, token: string): void {
  if (token.length < 16) throw new Error('guardInternalCalls: the internal token must have at least 16 characters');
  const expected = Buffer.from(token);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.url?.startsWith('/internal/')) return;
    const given = request.headers[INTERNAL_TOKEN_HEADER];
    const ok = typeof given === 'string' && Buffer.byteLength(given) === expected.length && timingSafeEqual(Buffer.from(given), expected);
    if (!ok) throw unauthorized(INTERNAL_TOKEN_REQUIRED);
  });
}
