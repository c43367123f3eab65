import type {} from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OPERATOR_CLAIM, OPS_BASE_PATH, OPS_SESSION_COOKIE } from '@ques/contracts';
import { requireOperator, type AccessClaims } from '@ques/kit';

/**
 * The operator console's pages (issue 18, ADR 0031). Sessions live in the browser (a bearer token in local storage),
 * so a page request carries none: an operator's app hands its access token to `POST /api/ops/session`, which checks
 * it like any operator call and keeps it in an HttpOnly, SameSite=Strict cookie scoped to `/ops` for the token's
 * remaining life. `/ops` pages are served only with such a cookie; everyone else gets the 404 page.
 */

/** `/ops` and everything under it. */
export const isOpsPage = (path: string): boolean => path === OPS_BASE_PATH || path.startsWith(`${OPS_BASE_PATH}/`);

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Whether a page request comes from an operator's browser: its `/ops` cookie holds a valid operator token. */
export async function opsPageAllowed(app: FastifyInstance, request: FastifyRequest): Promise<boolean> {
  const token = cookieValue(request.headers.cookie, OPS_SESSION_COOKIE);
  if (!token) return false;
  try {
    const claims = app.jwt.verify<AccessClaims & { exp?: number }>(token);
    return claims.typ === 'access' && claims[OPERATOR_CLAIM] === true;
  } catch {
    return false;
  }
}

const cookie = (value: string, maxAge: number, secure: boolean) =>
  `${OPS_SESSION_COOKIE}=${value}; Path=${OPS_BASE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;

export function registerOpsSession(app: FastifyInstance, opts: { publicOrigin: string }): void {
  const secure = opts.publicOrigin.startsWith('https:');
  // Not a forwarded call: the BFF itself answers it (a non-operator gets the 404 of any operator route).
  app.post('/api/ops/session', { config: { cors: false } }, async (request, reply) => {
    const claims = (await requireOperator(request)) as AccessClaims & { exp?: number };
    const token = request.headers.authorization!.replace(/^Bearer\s+/i, '');
    const maxAge = Math.max(0, (claims.exp ?? 0) - Math.floor(Date.now() / 1000));
    return reply.header('set-cookie', cookie(token, maxAge, secure)).header('cache-control', 'no-store').status(204).send();
  });
  app.delete('/api/ops/session', { config: { cors: false } }, async (_request, reply) =>
    reply.header('set-cookie', cookie('', 0, secure)).header('cache-control', 'no-store').status(204).send(),
  );
}
