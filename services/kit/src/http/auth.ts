import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.js';

/** Claims of an access token (issued by identity, verified everywhere). */
export interface AccessClaims {
  sub: string;
  username: string;
  /** Session (refresh-token family) the token belongs to. */
  sid: string;
  typ: 'access';
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessClaims;
    user: AccessClaims;
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
    verify: { algorithms: [JWT_ALGORITHM], allowedIss: opts.issuer, allowedAud: opts.audience, maxAge: opts.accessTtlSeconds ?? 900 },
  });
}

/** The signed-in user's claims, or a 401 with the spec-style body. */
export async function requireUser(request: FastifyRequest): Promise<AccessClaims> {
  if (!request.headers.authorization) throw unauthorized('Not authorized, no token');
  let claims: AccessClaims;
  try {
    claims = await request.jwtVerify<AccessClaims>();
  } catch {
    throw unauthorized('Not authorized, token failed');
  }
  if (claims.typ !== 'access' || typeof claims.sub !== 'string') throw unauthorized('Not authorized, token failed');
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
