import { DEFAULT_AVATAR_URL, DEFAULT_BRAND_COLOR_LIGHT, DEFAULT_BRAND_COLOR_MAIN } from '@ques/contracts';
import { CLAIM_MESSAGES, HANDLE_MESSAGES, IDENTITY_MESSAGES, OPS_MESSAGES } from '@ques/contracts/core';
import { badRequest, conflict, notFound, decider, unreachable } from '@ques/kit/domain';
import { evolveUser, initialUserState, type ProfileFields, type UserEvent, type UserState } from './user.js';

export type UserCommand =
  | {
      type: 'RegisterUser';
      data: {
        userId: string;
        username: string;
        name: string;
        email: string;
        passwordHash: string;
        now: Date;
        /** Archive profiles are created by the admin CLI with a bio (and later an avatar). */
        bio?: string;
        archiveProfile?: boolean;
      };
    }
  | { type: 'UpdateProfile'; data: { changes: Partial<ProfileFields>; now: Date } }
  /** A new public handle (issue 28), already checked against the rule; whether it is free is the database's to say. */
  | { type: 'ChangeUsername'; data: { username: string; now: Date } }
  | { type: 'ChangePassword'; data: { passwordHash: string; now: Date } }
  | { type: 'ChangeAvatar'; data: { avatarUrl: string; now: Date } }
  /**
   * `archiveOriginOnly` (the operator console, ADR 0054): marking needs an account registered as an archive and never
   * claimed — a real person's account is never made claimable. The server-side CLI may mark any account.
   */
  | { type: 'SetArchiveProfile'; data: { archiveProfile: boolean; now: Date; archiveOriginOnly?: boolean } }
  /** The link mailed to `email` was opened: proves that address, if it is still the account's. */
  | { type: 'VerifyEmail'; data: { email: string; now: Date } }
  | { type: 'DeleteUser'; data: { now: Date } }
  /** Server-side only (CLI, OPERATOR_EMAILS, an operator): never reachable from the profile form. */
  | { type: 'GrantOperator'; data: { by: string; now: Date } }
  | { type: 'RevokeOperator'; data: { by: string; now: Date } }
  | { type: 'SetArchiveSources'; data: { sources: string; now: Date } }
  /** An operator approved a claim (ADR 0034): the archive takes the claimant's sign-in and stops being an archive. */
  | { type: 'TakeOverByClaim'; data: { claimId: string; email: string; emailVerified: boolean; passwordHash: string; now: Date } };

const PROFILE_FIELDS: (keyof ProfileFields)[] = ['name', 'email', 'bio', 'brandColorMain', 'brandColorLight'];

export function decideUser(command: UserCommand, state: UserState): UserEvent[] {
  switch (command.type) {
    case 'RegisterUser': {
      if (state.status !== 'none') throw conflict('This account already exists.');
      const { userId, username, name, email, passwordHash, now, bio = '', archiveProfile = false } = command.data;
      return [
        {
          type: 'UserRegistered',
          data: {
            userId,
            username,
            name,
            email,
            bio,
            avatarUrl: DEFAULT_AVATAR_URL,
            brandColorMain: DEFAULT_BRAND_COLOR_MAIN,
            brandColorLight: DEFAULT_BRAND_COLOR_LIGHT,
            archiveProfile,
            emailVerified: false,
            passwordHash,
            registeredAt: now.toISOString(),
          },
        },
      ];
    }
    case 'UpdateProfile': {
      if (state.status !== 'active') throw notFound('User not found');
      const next = { ...state.profile };
      const changed: (keyof ProfileFields)[] = [];
      for (const field of PROFILE_FIELDS) {
        const value = command.data.changes[field];
        if (value !== undefined && value !== state.profile[field]) {
          next[field] = value;
          changed.push(field);
        }
      }
      // Saving an unchanged form is not an event.
      if (changed.length === 0) return [];
      // A new address is unproven until the link mailed to it is opened (ADR 0021).
      if (changed.includes('email')) next.emailVerified = false;
      return [{ type: 'ProfileUpdated', data: { ...next, changed, updatedAt: command.data.now.toISOString() } }];
    }
    case 'ChangeUsername': {
      if (state.status !== 'active') throw notFound('User not found');
      const { username, now } = command.data;
      if (username === state.profile.username) throw badRequest(HANDLE_MESSAGES.unchanged);
      return [
        {
          type: 'UsernameChanged',
          data: { ...state.profile, username, previousUsername: state.profile.username, changedAt: now.toISOString() },
        },
      ];
    }
    case 'ChangePassword': {
      if (state.status !== 'active') throw notFound('User not found');
      return [
        {
          type: 'PasswordChanged',
          data: { userId: state.profile.userId, passwordHash: command.data.passwordHash, changedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'ChangeAvatar': {
      if (state.status !== 'active') throw notFound('User not found');
      return [
        {
          type: 'AvatarChanged',
          data: { userId: state.profile.userId, avatarUrl: command.data.avatarUrl, changedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'SetArchiveProfile': {
      if (state.status !== 'active') throw notFound('User not found');
      if (state.profile.archiveProfile === command.data.archiveProfile) return [];
      if (command.data.archiveProfile && command.data.archiveOriginOnly && !state.archiveOrigin) throw conflict(OPS_MESSAGES.realAccount);
      return [
        {
          type: 'ArchiveStatusChanged',
          data: { ...state.profile, archiveProfile: command.data.archiveProfile, changedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'VerifyEmail': {
      if (state.status !== 'active') throw badRequest(IDENTITY_MESSAGES.verifyFailed);
      // A link mailed to an address the account no longer has proves nothing about the current one.
      if (state.profile.email !== command.data.email) throw badRequest(IDENTITY_MESSAGES.verifyFailed);
      if (state.profile.emailVerified) return [];
      return [{ type: 'EmailVerified', data: { ...state.profile, emailVerified: true, verifiedAt: command.data.now.toISOString() } }];
    }
    case 'DeleteUser': {
      if (state.status === 'deleted') return [];
      if (state.status !== 'active') throw notFound('User not found');
      return [{ type: 'UserDeleted', data: { userId: state.profile.userId, deletedAt: command.data.now.toISOString() } }];
    }
    case 'GrantOperator': {
      if (state.status !== 'active') throw notFound('User not found');
      if (state.operator) return [];
      return [{ type: 'OperatorGranted', data: { userId: state.profile.userId, by: command.data.by, grantedAt: command.data.now.toISOString() } }];
    }
    case 'RevokeOperator': {
      if (state.status !== 'active') throw notFound('User not found');
      if (!state.operator) return [];
      return [{ type: 'OperatorRevoked', data: { userId: state.profile.userId, by: command.data.by, revokedAt: command.data.now.toISOString() } }];
    }
    case 'SetArchiveSources': {
      if (state.status !== 'active') throw notFound('User not found');
      if ((state.archiveSources ?? '') === command.data.sources) return [];
      return [{ type: 'ArchiveSourcesChanged', data: { userId: state.profile.userId, sources: command.data.sources, changedAt: command.data.now.toISOString() } }];
    }
    case 'TakeOverByClaim': {
      if (state.status !== 'active') throw notFound('User not found');
      if (!state.profile.archiveProfile) throw conflict(CLAIM_MESSAGES.noLongerArchive);
      // A real account someone marked as an archive (the CLI, or before ADR 0054) keeps its own sign-in.
      if (!state.archiveOrigin) throw conflict(CLAIM_MESSAGES.notArchive);
      const { claimId, email, emailVerified, passwordHash, now } = command.data;
      return [
        {
          type: 'ProfileClaimed',
          data: { ...state.profile, archiveProfile: false, email, emailVerified, claimId, passwordHash, claimedAt: now.toISOString() },
        },
      ];
    }
    default:
      return unreachable(command);
  }
}

export const userDecider = decider(initialUserState, evolveUser, decideUser);
