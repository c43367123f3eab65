import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  HANDLE_MESSAGES as H,
  EMAIL_CHANGES_PER_DAY,
  IDENTITY_MESSAGES as M,
  ZChangePasswordRequest,
  ZUpdateProfileRequest,
  type ProfilePutBody,
  type SignupRequest,
  type SignupResponse,
  type User,
} from '@ques/contracts';
import {
  badRequest,
  conflict,
  forbidden,
  isUniqueViolation,
  notFound,
  tooManyRequests,
  type AccessClaims,
  type Clock,
  type EventMetadata,
  type PersonalDataVault,
} from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import { hashPassword, verifyPassword } from '../sessions/passwords.js';
import type { Sessions } from '../sessions/sessions.js';
import type { IssueAccess } from '../sessions/sign-in.js';
import { avatarUrl, encodeAvatar, type AvatarStore } from './avatars.js';
import type { UserCommands } from './commands.js';
import { userStreamId } from './domain/user.js';
import type { EmailVerification } from './email-verification.js';
import { isHandleTaken, type Handles } from './handles.js';
import { toUser, type UsersReadModel } from './read-models/users.js';

export interface AccountsDeps {
  commands: UserCommands;
  users: UsersReadModel;
  sessions: Sessions;
  avatars: AvatarStore;
  verification: EmailVerification;
  /** The person's data exports, erased with the account (issue 15). */
  exports: { forget(trx: Parameters<EmailVerification['forget']>[0], userId: string): Promise<void> };
  vault: PersonalDataVault;
  clock: Clock;
  issueAccess: IssueAccess;
  handles: Handles;
}

/** Who asks and how their events are labelled (from the request). */
export interface Caller {
  claims: AccessClaims;
  metadata: EventMetadata;
  correlationId: string;
}

/** Accounts: signup, the profile and its changes, the avatar, deletion. */
export class Accounts {
  constructor(private readonly deps: AccountsDeps) {}

  private async current(userId: string): Promise<User> {
    const row = await this.deps.users.byId(userId);
    if (!row) throw notFound(M.userNotFound);
    return toUser(row);
  }

  /** Registers the account, mails the verification link (queued with the registration) and starts a session. */
  async signup(body: SignupRequest, metadata: (userId: string) => EventMetadata): Promise<SignupResponse> {
    const { users, commands, sessions, verification, clock, issueAccess, handles } = this.deps;
    if (await users.byEmail(body.email)) throw conflict(M.emailTaken);
    // The chosen handle (issue 28) or, from older clients, the first free one the name leads to.
    if (body.username && !(await handles.availability(body.username)).available) throw conflict(H.taken);
    const passwordHash = await hashPassword(body.password);
    const userId = randomUUID();
    let username = body.username ?? (await handles.derive(body.name));
    for (let attempt = 0; ; attempt += 1) {
      try {
        await commands.handle(
          userId,
          { type: 'RegisterUser', data: { userId, username, name: body.name, email: body.email, passwordHash, now: clock() } },
          metadata(userId),
          { alongside: (trx) => verification.queue(trx, userId, body.email) },
        );
        break;
      } catch (error) {
        if (isUniqueViolation(error, 'users_email_unique')) throw conflict(M.emailTaken);
        // Someone took the same handle between our check and our append (the database said so): a derived one is
        // picked again, a chosen one is refused.
        if (isHandleTaken(error) && !body.username && attempt < 5) {
          username = await handles.derive(body.name);
          continue;
        }
        if (isHandleTaken(error)) throw conflict(H.taken);
        throw error;
      }
    }
    const user = await this.current(userId);
    const session = await sessions.start(userId);
    const accessToken = issueAccess(user, session.familyId);
    return { message: 'User registered successfully', user, token: accessToken, accessToken, refreshToken: session.refreshToken };
  }

  profile(userId: string): Promise<User> {
    return this.current(userId);
  }

  /** The current password, when a change needs it: missing → 400, wrong → 400 (never 401: the session is fine). */
  private async checkCurrentPassword(userId: string, currentPassword: string | undefined): Promise<void> {
    if (!currentPassword) throw badRequest(M.currentPasswordRequired);
    const row = await this.deps.users.byId(userId);
    if (!row) throw notFound(M.userNotFound);
    if (!(await verifyPassword(row.password_hash, currentPassword))) throw badRequest(M.currentPasswordWrong);
  }

  /**
   * `PUT /api/users/profile`: `{ newPassword, currentPassword }` changes the password (other sessions end); anything
   * else updates the profile, and a new address needs the current password and is mailed a verification link.
   */
  async update(caller: Caller, body: ProfilePutBody): Promise<User> {
    const { commands, users, sessions, verification, clock } = this.deps;
    const { claims, metadata, correlationId } = caller;
    if ('newPassword' in body) {
      const { newPassword, currentPassword } = ZChangePasswordRequest.parse(body);
      await this.checkCurrentPassword(claims.sub, currentPassword);
      const passwordHash = await hashPassword(newPassword);
      // Whoever else held a session (a stolen token, an old device) is signed out, with the change; this session stays.
      await commands.handle(claims.sub, { type: 'ChangePassword', data: { passwordHash, now: clock() } }, metadata, {
        alongside: (trx) => sessions.revokeAllForUser(claims.sub, 'password changed', { correlationId, trx, keepFamilyId: claims.sid }),
      });
      return this.current(claims.sub);
    }
    const { currentPassword, ...changes } = ZUpdateProfileRequest.parse(body);
    const before = await users.byId(claims.sub);
    if (!before) throw notFound(M.userNotFound);
    const newEmail = changes.email !== undefined && changes.email !== before.email ? changes.email : null;
    if (newEmail) {
      const owner = await users.byEmail(newEmail);
      if (owner && owner.id !== claims.sub) throw conflict(M.emailTaken);
      await this.checkCurrentPassword(claims.sub, currentPassword);
      // Bounded mail (issue 33, ADR 0054): each change mails the new address, so changes are capped per day.
      if ((await verification.emailChangesToday(claims.sub)) >= EMAIL_CHANGES_PER_DAY) throw tooManyRequests(M.tooManyEmailChanges);
    }
    try {
      await commands.handle(claims.sub, { type: 'UpdateProfile', data: { changes, now: clock() } }, metadata, {
        alongside: async (trx, result) => {
          const changed = result.events.find((e) => e.type === 'ProfileUpdated');
          if (newEmail && changed) await verification.queue(trx, claims.sub, newEmail);
        },
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_email_unique')) throw conflict(M.emailTaken);
      throw error;
    }
    return this.current(claims.sub);
  }

  /** Stores a new avatar (re-encoded) with the AvatarChanged event. */
  async changeAvatar(caller: Caller, upload: Buffer): Promise<User> {
    const { commands, avatars, clock } = this.deps;
    const userId = caller.claims.sub;
    const encoded = await encodeAvatar(upload);
    const now = clock();
    const url = avatarUrl(userId, encoded.version);
    await commands.handle(userId, { type: 'ChangeAvatar', data: { avatarUrl: url, now } }, caller.metadata, {
      alongside: (trx) => avatars.replace(trx, userId, encoded, now),
    });
    return this.current(userId);
  }

  /** Deletes the caller's own account and everything personal identity holds about them. */
  async delete(caller: Caller, id: string): Promise<{ message: string }> {
    const { claims, correlationId } = caller;
    if (id !== claims.sub) throw forbidden(M.deleteOwnOnly);
    await this.retire(claims.sub, caller.metadata, correlationId);
    return { message: 'Account deleted successfully' };
  }

  /**
   * The one way an account ends: `UserDeleted`, its key destroyed, its sessions revoked, its rows erased. Used by
   * deletion and by an approved profile claim, which retires the claimant's own account inside the approval's
   * transaction (`trx`; ADR 0034).
   */
  async retire(userId: string, metadata: EventMetadata, correlationId: string, trx?: Kysely<IdentityDB>): Promise<void> {
    const { commands, vault, avatars, sessions, verification, exports, clock } = this.deps;
    const stream = userStreamId(userId);
    await commands.handle(userId, { type: 'DeleteUser', data: { now: clock() } }, metadata, {
      ...(trx ? { transaction: trx } : {}),
      alongside: async (tx) => {
        // Destroying the key makes every stored copy of their personal fields unreadable (ADR 0010).
        await vault.forget(tx, userId);
        await avatars.remove(tx, userId);
        await tx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
        await verification.forget(tx, userId);
        // Their data exports (and any archive) go with the account; a run finishing later stores nothing.
        await exports.forget(tx, userId);
        // Published integration events of theirs still waiting for cleanup go now; UserDeleted itself stays queued.
        await tx
          .deleteFrom('outbox')
          .where('published_at', 'is not', null)
          .where(sql<boolean>`envelope->>'streamId' = ${stream}`)
          .execute();
        await sessions.revokeAllForUser(userId, 'account deleted', { correlationId, trx: tx });
      },
    });
  }
}
