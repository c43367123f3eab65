/** The user aggregate: events, state and evolve. Pure — no I/O (lint-enforced). */

export interface ProfileFields {
  name: string;
  email: string;
  bio: string;
  brandColorMain: string;
  brandColorLight: string;
}

export interface UserProfile extends ProfileFields {
  userId: string;
  username: string;
  avatarUrl: string;
  archiveProfile: boolean;
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
  | { type: 'PasswordChanged'; data: { userId: string; passwordHash: string; changedAt: string } };

export type UserState =
  | { status: 'none' }
  | { status: 'active'; profile: UserProfile; passwordHash: string; registeredAt: string };

export const initialUserState = (): UserState => ({ status: 'none' });

export const userStreamId = (userId: string) => `user-${userId}`;

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
  };
}

export function evolveUser(state: UserState, event: UserEvent): UserState {
  switch (event.type) {
    case 'UserRegistered':
      return { status: 'active', profile: profileOf(event.data), passwordHash: event.data.passwordHash, registeredAt: event.data.registeredAt };
    case 'ProfileUpdated':
      if (state.status !== 'active') return state;
      return { ...state, profile: profileOf(event.data) };
    case 'PasswordChanged':
      if (state.status !== 'active') return state;
      return { ...state, passwordHash: event.data.passwordHash };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
