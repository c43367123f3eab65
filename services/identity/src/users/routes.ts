import multipart from '@fastify/multipart';
import { AVATAR_MAX_BYTES, IDENTITY_MESSAGES as M, identityApi, identityBrowserCalls } from '@ques/contracts';
import { metadataFrom, notFound, optionalUser, routeFor, type HttpApp } from '@ques/kit';
import type { FastifyRequest } from 'fastify';
import { requireActiveUser } from '../sessions/active-user.js';
import type { Sessions } from '../sessions/sessions.js';
import type { SignIn } from '../sessions/sign-in.js';
import type { Accounts, Caller } from './accounts.js';
import { readAvatarUpload } from './avatar-upload.js';
import { parseAvatarFile, type AvatarStore } from './avatars.js';
import type { EmailVerification } from './email-verification.js';
import type { Handles } from './handles.js';
import type { HandlesReadModel } from './read-models/handles.js';
import type { PasswordResets } from './password-resets.js';
import { toPublicProfile, type UsersReadModel } from './read-models/users.js';

export interface IdentityRoutesParts {
  accounts: Accounts;
  signIn: SignIn;
  verification: EmailVerification;
  resets: PasswordResets;
  sessions: Sessions;
  users: UsersReadModel;
  avatars: AvatarStore;
  handles: Handles;
  handleHistory: HandlesReadModel;
}

/**
 * Identity's calls declared in contracts (`identityApi`, `identityBrowserCalls`): who is calling, then the module
 * (accounts, sign-in, e-mail verification, password resets) and the status. Method, path and schemas come from the
 * declarations.
 */
export async function registerIdentityRoutes(app: HttpApp, parts: IdentityRoutesParts): Promise<void> {
  const { accounts, signIn, verification, resets, sessions, users, avatars, handles, handleHistory } = parts;

  /** The signed-in caller of an identity route: a valid token of a session that has not ended. */
  const caller = async (request: FastifyRequest): Promise<Caller> => {
    const claims = await requireActiveUser(request, sessions);
    return { claims, metadata: metadataFrom(request, claims.sub), correlationId: request.correlationId };
  };
  const metadata = (request: FastifyRequest) => (userId: string) => metadataFrom(request, userId);

  // Multipart only for the avatar: one file, nothing else, and never more than 2 MB read into memory.
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 } });

  routeFor(app, identityApi.signup, async (request, reply) => reply.status(201).send(await accounts.signup(request.body, metadata(request))));

  routeFor(app, identityApi.login, async (request) => signIn.login(request.body));

  routeFor(app, identityApi.refreshToken, async (request) => signIn.refresh(request.body.refreshToken, request.correlationId));

  routeFor(app, identityApi.logout, async (request) => {
    const claims = await optionalUser(request).catch(() => null);
    return signIn.logout(claims, request.body.refreshToken, request.correlationId);
  });

  routeFor(app, identityApi.getProfile, async (request) => {
    const { claims } = await caller(request);
    await signIn.assertCurrentRole(claims);
    return accounts.profile(claims.sub);
  });

  routeFor(app, identityApi.updateProfile, async (request) => accounts.update(await caller(request), request.body));

  routeFor(app, identityApi.publicProfile, async (request) => {
    const { username } = request.params;
    // Only a well-formed username can exist (and a NUL byte must never reach Postgres).
    if (!/^[\w-]{1,100}$/.test(username)) throw notFound(M.userNotFound);
    // A handle renamed away (issue 28) answers with the profile under its new handle: the pages redirect to it.
    const row = (await users.byUsername(username)) ?? (await renamed(username.toLowerCase()));
    if (!row) throw notFound(M.userNotFound);
    return toPublicProfile(row);
  });
  const renamed = async (handle: string) => {
    const userId = await handleHistory.renamedFrom(handle);
    return userId ? users.byId(userId) : undefined;
  };

  routeFor(app, identityApi.handleAvailability, async (request) => {
    const claims = await optionalUser(request).catch(() => null);
    return handles.availability(request.params.handle, claims?.sub);
  });

  routeFor(app, identityApi.changeHandle, async (request) => handles.rename(await caller(request), request.body.username));

  routeFor(app, identityApi.uploadAvatar, async (request) => {
    const who = await caller(request);
    return accounts.changeAvatar(who, await readAvatarUpload(request));
  });

  routeFor(app, identityApi.deleteAccount, async (request) => accounts.delete(await caller(request), request.params.id));

  routeFor(app, identityApi.resetPassword, async (request) => resets.request(request.body.email));

  routeFor(app, identityApi.resetPasswordConfirm, async (request) =>
    resets.confirm(request.body.token, request.body.password, metadata(request), request.correlationId),
  );

  routeFor(app, identityApi.verifyEmail, async (request) => verification.confirm(request.body.token, metadata(request)));

  routeFor(app, identityApi.resendVerification, async (request) => verification.resend((await caller(request)).claims.sub));

  routeFor(app, identityBrowserCalls.avatarImage, async (request, reply) => {
    const { userId, file } = request.params;
    const parsed = parseAvatarFile(file);
    if (!parsed || !/^[0-9a-f-]{36}$/.test(userId)) throw notFound(M.imageNotFound);
    const image = await avatars.get(userId, parsed.version, parsed.size);
    if (!image) throw notFound(M.imageNotFound);
    // The URL changes with every upload, so the bytes behind one URL never do.
    return reply
      .header('content-type', image.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(image.bytes);
  });
}
