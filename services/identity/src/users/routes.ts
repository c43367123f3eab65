import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  usernameFromName,
  ZChangePasswordRequest,
  ZLoginRequest,
  ZLogoutRequest,
  ZRefreshTokenRequest,
  ZSignupRequest,
  ZUpdateProfileRequest,
  type LoginResponse,
  type RefreshTokenResponse,
  type SignupResponse,
  type User,
} from '@ques/contracts';
import {
  conflict,
  isUniqueViolation,
  metadataFrom,
  notFound,
  optionalUser,
  parseWith,
  signAccessToken,
  tooManyRequests,
  unauthorized,
  type HttpApp,
  type ServiceContext,
} from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import { requireActiveUser } from '../sessions/active-user.js';
import { hashPassword, verifyPassword } from '../sessions/passwords.js';
import type { LoginThrottle, Sessions } from '../sessions/sessions.js';
import type { UserCommands } from './commands.js';
import { toPublicProfile, toUser, type UsersReadModel } from './read-models/users.js';

const EMAIL_TAKEN = 'An account with this email already exists.';
const BAD_CREDENTIALS = 'Invalid email or password';

export interface UserRoutesParts {
  commands: UserCommands;
  sessions: Sessions;
  throttle: LoginThrottle;
  users: UsersReadModel;
}

export async function registerUserRoutes(app: HttpApp, parts: UserRoutesParts, ctx: ServiceContext<IdentityDB>): Promise<void> {
  const { commands, sessions, throttle, users } = parts;
  const { clock } = ctx;

  const issueAccess = (user: { id: string; username: string }, sid: string) =>
    signAccessToken(app, { sub: user.id, username: user.username, sid, typ: 'access' });

  const activeUser = (request: FastifyRequest) => requireActiveUser(request, sessions);

  async function freeUsername(base: string): Promise<string> {
    const taken = await users.usernamesLike(base);
    if (!taken.has(base)) return base;
    for (let n = 2; n < 10_000; n += 1) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
    return `${base}-${randomUUID().slice(0, 8)}`;
  }

  app.post('/api/users', async (request, reply) => {
    const body = parseWith(ZSignupRequest, request.body);
    if (await users.byEmail(body.email)) throw conflict(EMAIL_TAKEN);
    const base = body.username ?? (usernameFromName(body.name) || 'user');
    if (body.username && (await users.byUsername(body.username))) throw conflict('This username is taken.');
    const passwordHash = await hashPassword(body.password);
    const userId = randomUUID();
    let username = await freeUsername(base);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await commands.handle(
          userId,
          { type: 'RegisterUser', data: { userId, username, name: body.name, email: body.email, passwordHash, now: clock() } },
          metadataFrom(request, userId),
        );
        break;
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_unique')) throw conflict(EMAIL_TAKEN);
        // Someone took the same username between our check and our append: pick again.
        if (isUniqueViolation(error, 'users_username_unique') && !body.username && attempt < 5) {
          username = attempt < 2 ? await freeUsername(base) : `${base}-${randomUUID().slice(0, 6)}`;
          continue;
        }
        if (isUniqueViolation(error, 'users_username_unique')) throw conflict('This username is taken.');
        throw error;
      }
    }
    const row = (await users.byId(userId))!;
    const session = await sessions.start(userId);
    const accessToken = issueAccess(row, session.familyId);
    const response: SignupResponse = {
      message: 'User registered successfully',
      user: toUser(row),
      token: accessToken,
      accessToken,
      refreshToken: session.refreshToken,
    };
    return reply.status(201).send(response);
  });

  app.post('/api/users/login', async (request) => {
    const body = parseWith(ZLoginRequest, request.body);
    if (!(await throttle.reserve(body.email))) throw tooManyRequests('Too many login attempts. Please try again later.');
    const row = await users.byEmail(body.email);
    const ok = await verifyPassword(row?.password_hash ?? null, body.password);
    if (!row || !ok) throw unauthorized(BAD_CREDENTIALS);
    await throttle.clear(body.email);
    const session = await sessions.start(row.id);
    const response: LoginResponse = {
      message: 'Login successful',
      user: toUser(row),
      accessToken: issueAccess(row, session.familyId),
      refreshToken: session.refreshToken,
    };
    return response;
  });

  app.post('/api/users/refresh-token', async (request) => {
    const body = parseWith(ZRefreshTokenRequest, request.body);
    const issued = await sessions.rotate(body.refreshToken, request.correlationId);
    const row = await users.byId(issued.userId);
    if (!row) {
      await sessions.revokeFamily(issued.familyId, 'user gone', request);
      throw unauthorized('Invalid or expired refresh token');
    }
    const response: RefreshTokenResponse = { accessToken: issueAccess(row, issued.familyId), refreshToken: issued.refreshToken };
    return response;
  });

  app.post('/api/users/logout', async (request) => {
    const body = parseWith(ZLogoutRequest, request.body);
    const claims = await optionalUser(request).catch(() => null);
    if (claims) await sessions.revokeFamily(claims.sid, 'logout', request);
    if (body.refreshToken) await sessions.revokeByToken(body.refreshToken, 'logout', request);
    return { message: 'Logged out' };
  });

  app.get('/api/users/profile', async (request) => {
    const claims = await activeUser(request);
    const row = await users.byId(claims.sub);
    if (!row) throw notFound('User not found');
    return toUser(row);
  });

  app.put('/api/users/profile', async (request): Promise<User> => {
    const claims = await activeUser(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const metadata = metadataFrom(request, claims.sub);
    if ('newPassword' in body) {
      const { newPassword } = parseWith(ZChangePasswordRequest, body);
      const passwordHash = await hashPassword(newPassword);
      // Whoever else held a session (a stolen token, an old device) is signed out, with the change; this session stays.
      await commands.handle(claims.sub, { type: 'ChangePassword', data: { passwordHash, now: clock() } }, metadata, {
        alongside: (trx) =>
          sessions.revokeAllForUser(claims.sub, 'password changed', { correlationId: request.correlationId, trx, keepFamilyId: claims.sid }),
      });
    } else {
      const changes = parseWith(ZUpdateProfileRequest, body);
      if (changes.email) {
        const owner = await users.byEmail(changes.email);
        if (owner && owner.id !== claims.sub) throw conflict(EMAIL_TAKEN);
      }
      try {
        await commands.handle(claims.sub, { type: 'UpdateProfile', data: { changes, now: clock() } }, metadata);
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_unique')) throw conflict(EMAIL_TAKEN);
        throw error;
      }
    }
    const row = await users.byId(claims.sub);
    if (!row) throw notFound('User not found');
    return toUser(row);
  });

  app.get<{ Params: { username: string } }>('/api/users/public/:username', async (request) => {
    const username = String(request.params.username);
    // Only a well-formed username can exist (and a NUL byte must never reach Postgres).
    if (!/^[\w-]{1,100}$/.test(username)) throw notFound('User not found');
    const row = await users.byUsername(username);
    if (!row) throw notFound('User not found');
    return toPublicProfile(row);
  });
}
