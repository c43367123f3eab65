/** The user aggregate: events, state and evolve. Pure — no I/O (lint-enforced). */
import type { EditableProfileFields as ProfileFields } from '@ques/contracts';

export type { ProfileFields };

export interface UserProfile extends ProfileFields {
  userId: string;
  username: string;
  avatarUrl: string;
  archiveProfile: boolean;
  /**
   * The person opened the link mailed to `email` (ADR 0021). Events recorded before verification existed carry no
   * value: they read as false.
   */
  emailVerified?: boolean;
}

export type UserEvent =
  | {
      type: 'UserRegistered';
      data: UserProfile & { passwordHash: string; registeredAt: string };
    }
  | {
      /** Carries the whole profile after the change (consumers keep snapshots) plus which fields changed. */
      type: 'ProfileUpdated';
      data: UserProfile & { changed: (keyof ProfileFields)[]; updatedAt: string };
    }
  /**
   * The public handle changed (issue 28): the whole profile after it (consumers keep snapshots) and the handle it
   * replaced, which redirects to the new one.
   */
  | { type: 'UsernameChanged'; data: UserProfile & { previousUsername: string; changedAt: string } }
  | { type: 'PasswordChanged'; data: { userId: string; passwordHash: string; changedAt: string } }
  | { type: 'AvatarChanged'; data: { userId: string; avatarUrl: string; changedAt: string } }
  /** Marks (or unmarks) a non-affiliated curated archive: it cannot be asked or tipped. */
  | { type: 'ArchiveStatusChanged'; data: UserProfile & { changedAt: string } }
  /** The person proved they own `email` (carries the whole profile, like ProfileUpdated, for consumers' snapshots). */
  | { type: 'EmailVerified'; data: UserProfile & { verifiedAt: string } }
  | { type: 'UserDeleted'; data: { userId: string; deletedAt: string } }
  /**
   * Platform operator (issue 18, ADR 0031), granted and revoked only server-side: the identity CLI, `OPERATOR_EMAILS`
   * for a verified address, or another operator. `by` says which (`cli:<os user>`, `OPERATOR_EMAILS`, `user:<id>`).
   */
  | { type: 'OperatorGranted'; data: { userId: string; by: string; grantedAt: string } }
  | { type: 'OperatorRevoked'; data: { userId: string; by: string; revokedAt: string } }
  /** The curator's note on where an archive profile's material comes from (issue 18). */
  | { type: 'ArchiveSourcesChanged'; data: { userId: string; sources: string; changedAt: string } }
  /**
   * An approved claim (issue 18, ADR 0034): the archive becomes an ordinary profile that its claimant signs in to. It
   * keeps its id (its answers, sources and payouts stay attached) and takes the claimant's sign-in: the whole profile
   * after the change (archiveProfile false, the claimant's address and whether it is verified) and password hash.
   */
  | { type: 'ProfileClaimed'; data: UserProfile & { claimId: string; passwordHash: string; claimedAt: string } };

export type UserState =
  | { status: 'none' }
  | {
      status: 'active';
      profile: UserProfile;
      passwordHash: string;
      registeredAt: string;
      operator?: boolean;
      archiveSources?: string;
      /** Registered as an archive (console or CLI), and never claimed since: the only accounts a claim may take over. */
      archiveOrigin?: boolean;
    }
  | { status: 'deleted'; userId: string };

export const initialUserState = (): UserState => ({ status: 'none' });

export const userStreamId = (userId: string) => `user-${userId}`;

/**
 * Personal fields per event type, sealed with the person's own key in the event store (ADR 0010): deleting the
 * account destroys the key, so no copy of them stays readable.
 */
export const PERSONAL_FIELDS: Record<UserEvent['type'], readonly string[]> = {
  UserRegistered: ['username', 'name', 'email', 'bio', 'avatarUrl', 'passwordHash'],
  ProfileUpdated: ['username', 'name', 'email', 'bio', 'avatarUrl'],
  ArchiveStatusChanged: ['username', 'name', 'email', 'bio', 'avatarUrl'],
  EmailVerified: ['username', 'name', 'email', 'bio', 'avatarUrl'],
  UsernameChanged: ['username', 'name', 'email', 'bio', 'avatarUrl', 'previousUsername'],
  PasswordChanged: ['passwordHash'],
  AvatarChanged: ['avatarUrl'],
  UserDeleted: [],
  OperatorGranted: [],
  OperatorRevoked: [],
  ArchiveSourcesChanged: ['sources'],
  ProfileClaimed: ['username', 'name', 'email', 'bio', 'avatarUrl', 'passwordHash'],
};

function profileOf(data: UserProfile): UserProfile {
  return {
    userId: data.userId,
    username: data.username,
    name: data.name,
    email: data.email,
    bio: data.bio,
    avatarUrl: data.avatarUrl,
    brandColorMain: data.brandColorMain,
    brandColorLight: data.brandColorLight,
    archiveProfile: data.archiveProfile,
    emailVerified: data.emailVerified ?? false,
  };
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return {
        status: 'active',
        profile: profileOf(event.data),
        passwordHash: event.data.passwordHash,
        registeredAt: event.data.registeredAt,
        archiveOrigin: event.data.archiveProfile,
      };
    case 'ProfileUpdated':
      if (state.status !== 'active') return state;
      return { ...state, profile: profileOf(event.data) };
    case 'UsernameChanged':
      if (state.status !== 'active') return state;
      return { ...state, profile: profileOf(event.data) };
    case 'PasswordChanged':
      if (state.status !== 'active') return state;
      return { ...state, passwordHash: event.data.passwordHash };
    case 'AvatarChanged':
      if (state.status !== 'active') return state;
      return { ...state, profile: { ...state.profile, avatarUrl: event.data.avatarUrl } };
    case 'ArchiveStatusChanged':
      if (state.status !== 'active') return state;
      return { ...state, profile: profileOf(event.data) };
    case 'EmailVerified':
      if (state.status !== 'active') return state;
      return { ...state, profile: profileOf(event.data) };
    case 'UserDeleted':
      return { status: 'deleted', userId: event.data.userId };
    case 'OperatorGranted':
      if (state.status !== 'active') return state;
      return { ...state, operator: true };
    case 'OperatorRevoked':
      if (state.status !== 'active') return state;
      return { ...state, operator: false };
    case 'ArchiveSourcesChanged':
      if (state.status !== 'active') return state;
      return { ...state, archiveSources: event.data.sources };
    case 'ProfileClaimed':
      if (state.status !== 'active') return state;
      return { ...state, profile: profileOf(event.data), passwordHash: event.data.passwordHash, archiveOrigin: false };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
