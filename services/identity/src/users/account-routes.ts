import { createHash, randomBytes } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import {
  AVATAR_MAX_BYTES,
  ZResetPasswordConfirmRequest,
  ZResetPasswordRequest,
  type User,
} from '@ques/contracts';
import { AppError, badRequest, forbidden, notFound, parseWith, metadataFrom, type HttpApp, type PersonalDataVault, type ServiceContext } from '@ques/kit';
import type { IdentityConfig } from '../config.js';
import type { IdentityDB } from '../db/schema.js';
import { requireActiveUser } from '../sessions/active-user.js';
import { hashPassword } from '../sessions/passwords.js';
import type { Sessions } from '../sessions/sessions.js';
import { avatarUrl, encodeAvatar, parseAvatarFile, TOO_LARGE, type AvatarStore } from './avatars.js';
import type { UserCommands } from './commands.js';
import { userStreamId } from './domain/user.js';
import { toUser, type UsersReadModel } from './read-models/users.js';

export interface AccountRoutesParts {
  commands: UserCommands;
  sessions: Sessions;
  users: UsersReadModel;
  avatars: AvatarStore;
}

export const RESET_TTL_MS = 30 * 60_000;
const RESET_SENT = 'Reset instructions sent';
const RESET_FAILED = 'Reset failed. The link may have expired or been used already.';

/**
 * Reads an uploaded file part, refusing it the moment it passes the size limit. (@fastify/multipart's toBuffer only
 * notices at the end of the part, i.e. after the client sent everything; this answers 413 while they are still
 * sending, and never holds more than the limit.)
 */
function readWithinLimit(stream: NodeJS.ReadableStream & { truncated?: boolean }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('limit', () => reject(new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE)));
    stream.once('error', reject);
    stream.once('end', () => (stream.truncated ? reject(new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE)) : resolve(Buffer.concat(chunks))));
  });
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Avatar upload and serving, password reset, account deletion. */
export async function registerAccountRoutes(
  app: HttpApp,
  parts: AccountRoutesParts,
  ctx: ServiceContext<IdentityDB, IdentityConfig>,
  vault: PersonalDataVault,
): Promise<void> {
  const { commands, sessions, users, avatars } = parts;
  // The reset link's mailer (null where identity sends no e-mail) and the web app's origin for the link.
  const { clock, log, mailer, db } = ctx;
  const publicOrigin = ctx.config.PUBLIC_ORIGIN;

  const activeUser = (request: FastifyRequest) => requireActiveUser(request, sessions);

  // Multipart only for the avatar: one file, nothing else, and never more than 2 MB read into memory.
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 1024 } });

  app.post('/api/users/avatar', async (request): Promise<User> => {
    const claims = await activeUser(request);
    // A declared body far over the limit is refused before a byte of it is read (multipart framing adds a little).
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > AVATAR_MAX_BYTES + 16 * 1024) throw new AppError('PAYLOAD_TOO_LARGE', TOO_LARGE);
    if (!request.isMultipart()) throw badRequest('Please choose an image to upload.');
    const file = await request.file();
    if (!file || file.fieldname !== 'avatar') throw badRequest('Please choose an image to upload.');
    const upload = await readWithinLimit(file.file);
    const encoded = await encodeAvatar(upload);
    const now = clock();
    const url = avatarUrl(claims.sub, encoded.version);
    await commands.handle(claims.sub, { type: 'ChangeAvatar', data: { avatarUrl: url, now } }, metadataFrom(request, claims.sub), {
      alongside: (trx) => avatars.replace(trx, claims.sub, encoded, now),
    });
    const row = await users.byId(claims.sub);
    if (!row) throw notFound('User not found');
    return toUser(row);
  });

  app.get<{ Params: { userId: string; file: string } }>('/images/avatars/:userId/:file', async (request, reply) => {
    const parsed = parseAvatarFile(request.params.file);
    if (!parsed || !/^[0-9a-f-]{36}$/.test(request.params.userId)) throw notFound('Image not found');
    const image = await avatars.get(request.params.userId, parsed.version, parsed.size);
    if (!image) throw notFound('Image not found');
    // The URL changes with every upload, so the bytes behind one URL never do.
    return reply
      .header('content-type', image.contentType)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(image.bytes);
  });

  // Same answer, same work on the request path, for known and unknown addresses: the lookup and the e-mail happen
  // after the response, so neither the body nor the timing says whether an account exists.
  app.post('/api/users/reset-password', async (request) => {
    const { email } = parseWith(ZResetPasswordRequest, request.body);
    const correlationId = request.correlationId;
    setImmediate(() => {
      sendResetLink(email).catch((err: unknown) => log.error({ err, correlationId }, 'password reset e-mail failed'));
    });
    return { message: RESET_SENT };
  });

  async function sendResetLink(email: string): Promise<void> {
    const row = await users.byEmail(email);
    if (!row) return;
    if (!mailer) throw new Error('this identity instance has no mailer');
    const token = randomBytes(32).toString('base64url');
    const now = clock();
    await db
      .insertInto('password_resets')
      .values({ token_hash: sha256(token), user_id: row.id, created_at: now, expires_at: new Date(now.getTime() + RESET_TTL_MS) })
      .execute();
    const link = `${publicOrigin}/reset-password-confirm?token=${encodeURIComponent(token)}`;
    await mailer.send({
      to: row.email,
      subject: 'Reset your Ques password',
      text:
        `Hi ${row.name},\n\nSomeone (hopefully you) asked to reset the password of your Ques account.\n` +
        `Open this link within 30 minutes to choose a new one:\n\n${link}\n\n` +
        `If you did not ask for this, ignore this e-mail: your password stays as it is.\n`,
    });
  }

  app.post('/api/users/reset-password-confirm', async (request) => {
    const body = parseWith(ZResetPasswordConfirmRequest, request.body);
    const now = clock();
    // Claimed atomically: a token works once, even when two requests race.
    const claimed = await db
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(body.token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!claimed) throw badRequest(RESET_FAILED);
    const userId = claimed.user_id;
    if (!(await users.byId(userId))) throw badRequest(RESET_FAILED);
    const passwordHash = await hashPassword(body.password);
    // Whoever held a session (perhaps the reason for the reset) is signed out everywhere, with the change.
    await commands.handle(userId, { type: 'ChangePassword', data: { passwordHash, now } }, metadataFrom(request, userId), {
      alongside: (trx) => sessions.revokeAllForUser(userId, 'password reset', { correlationId: request.correlationId, trx }),
    });
    await db.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    return { message: 'Your password has been reset. You can log in now.' };
  });

  app.delete<{ Params: { id: string } }>('/api/users/profile/:id', async (request) => {
    const claims = await activeUser(request);
    if (request.params.id !== claims.sub) throw forbidden('You can only delete your own account.');
    const userId = claims.sub;
    const stream = userStreamId(userId);
    await commands.handle(userId, { type: 'DeleteUser', data: { now: clock() } }, metadataFrom(request, userId), {
      alongside: async (trx) => {
        // Destroying the key makes every stored copy of their personal fields unreadable (ADR 0010).
        await vault.forget(trx, userId);
        await avatars.remove(trx, userId);
        await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
        // Published integration events of theirs still waiting for cleanup go now; UserDeleted itself stays queued.
        await trx
          .deleteFrom('outbox')
          .where('published_at', 'is not', null)
          .where(sql<boolean>`envelope->>'streamId' = ${stream}`)
          .execute();
        await sessions.revokeAllForUser(userId, 'account deleted', { correlationId: request.correlationId, trx });
      },
    });
    return { message: 'Account deleted successfully' };
  });
}
