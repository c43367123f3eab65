import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, unauthorized } from '../errors.js';
import { SESSION_ENDED, type RevocationCheck } from './revocations.js';

/** Claims of an access token (issued by identity, verified everywhere). */
export interface AccessClaims {
  sub: string;
  username: string;
  /** Session (refresh-token family) the token belongs to. */
  sid: string;
  typ: 'access';
  /**
   * A platform operator (issue 18, ADR 0031): set by identity from the account's operator flag when it signs the
   * token; revoking the flag ends every session of the account, so no token outlives it. Check it with
   * `requireOperator`, never by reading the claim.
   */
  op?: true;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
    user: AccessClaims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by runService where sessions are revoked through the kit's read model (every service but identity). */
    revocations: RevocationCheck | null;
  }
}

export const JWT_ALGORITHM = 'EdDSA';

export interface JwtVerifyOptions {
  publicKey: string;
  issuer: string;
  audience: string;
  /** Only identity signs. */
  privateKey?: string;
  accessTtlSeconds?: number;
}

/**
 * Registers @fastify/jwt pinned to EdDSA with issuer and audience checked. Verification only needs the public key,
 * so a stolen service or BFF cannot mint tokens.
 */
export async function registerJwt(app: FastifyInstance, opts: JwtVerifyOptions): Promise<void> {
  await app.register(fastifyJwt, {
    secret: opts.privateKey ? { private: opts.privateKey, public: opts.publicKey } : { public: opts.publicKey },
    // Numbers are seconds in @fastify/jwt.
    sign: { algorithm: JWT_ALGORITHM, iss: opts.issuer, aud: opts.audience, expiresIn: opts.accessTtlSeconds ?? 900 },
    verify: {
      algorithms: [JWT_ALGORITHM],
      allowedIss: opts.issuer,
      allowedAud: opts.audience,
      maxAge: opts.accessTtlSeconds ?? 900,
      // fast-jwt skips the checks of an absent claim: a token without exp, iat, iss or aud would otherwise pass them.
      requiredClaims: ['exp', 'iat', 'iss', 'aud'],
      // Verified tokens are remembered (LRU, hashed token → claims, never past the token's exp or maxAge): a
      // signature check is ~200 µs, a hit ~12 µs, and a hot reader (the inbox, ADR 0040) sends the same token every
      // time. Revocation is still checked on every request (below); failures are never cached.
      cache: 10_000,
    },
  });
  if (!app.hasDecorator('revocations')) app.decorate('revocations', null);
}

/** Makes `requireUser` / `optionalUser` refuse tokens of revoked sessions (runService does this). */
export function useRevocationCheck(app: FastifyInstance, check: RevocationCheck): void {
  app.revocations = check;
}

const verified = new WeakMap<FastifyRequest, Promise<AccessClaims>>();

/**
 * The signed-in user's claims, or a 401 with the spec-style body: an access token (typ, sub, sid, exp, iat) whose
 * session has not been revoked. Verified once per request, however often a route and its hooks ask.
 */
export function requireUser(request: FastifyRequest): Promise<AccessClaims> {
  let claims = verified.get(request);
  if (!claims) {
    claims = verifyAccess(request);
    verified.set(request, claims);
  }
  return claims;
}

async function verifyAccess(request: FastifyRequest): Promise<AccessClaims> {
  if (!request.headers.authorization) throw unauthorized('Not authorized, no token');
  let claims: AccessClaims & { exp?: unknown; iat?: unknown };
  try {
    claims = await request.jwtVerify<AccessClaims>();
  } catch {
    throw unauthorized('Not authorized, token failed');
  }
  const wellFormed =
    claims.typ === 'access' &&
    typeof claims.sub === 'string' &&
    typeof claims.sid === 'string' &&
    typeof claims.exp === 'number' &&
    typeof claims.iat === 'number';
  if (!wellFormed) throw unauthorized('Not authorized, token failed');
  if (await request.server.revocations?.isRevoked(claims.sid)) throw unauthorized(SESSION_ENDED);
  return claims;
}

/** The signed-in user's claims when a valid token is present, otherwise null (guest). An invalid token is a 401. */
export async function optionalUser(request: FastifyRequest): Promise<AccessClaims | null> {
  if (!request.headers.authorization) return null;
  return requireUser(request);
}

/** Signs an access token with the app's private key (only identity registers one). */
export function signAccessToken(app: FastifyInstance, claims: AccessClaims): string {
  return app.jwt.sign(claims);
}

/** What every operator route answers to anyone else: the 404 of a path that does not exist. */
export const OPERATOR_ONLY = 'Not found';

/**
 * The one guard of every operator route (issue 18, ADR 0031), at the BFF (calls declared `auth: 'operator'`) and in
 * the service that answers them: the claims of a valid, unrevoked access token whose `op` claim identity set. A guest
 * and a signed-in non-operator get a 404, so the console's routes do not even show that they exist; a token that
 * fails verification is the usual 401 (the browser refreshes it).
 */
export async function requireOperator(request: FastifyRequest): Promise<AccessClaims & { op: true }> {
  if (!request.headers.authorization) throw notFound(OPERATOR_ONLY);
  const claims = await requireUser(request);
  if (claims.op !== true) throw notFound(OPERATOR_ONLY);
  return claims as AccessClaims & { op: true };
}

/** Whether verified claims are an operator's (for views that only add to what an operator sees). */
export const isOperator = (claims: AccessClaims | null | undefined): boolean => claims?.op === true;
