import type { FastifyRequest } from 'fastify';
import { requireUser, unauthorized, type AccessClaims } from '@ques/kit';
import type { Sessions } from './sessions.js';

/** A valid token whose session was revoked (logout, password change, deletion) no longer opens identity's routes. */
export async function requireActiveUser(request: FastifyRequest, sessions: Sessions): Promise<AccessClaims> {
  const claims = await requireUser(request);
  if (!(await sessions.isActive(claims.sid))) throw unauthorized('Session has ended, please log in again');
  return claims;
}
