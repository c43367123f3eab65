import { describe, expect, it } from 'vitest';
import { AppError } from '@ques/kit/errors';
import { decideUser, userDecider, type UserCommand } from './decide.js';
import type { UserEvent, UserState } from './user.js';

const now = new Date('2026-11-21T10:00:00.000Z');
const userId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
const register: UserCommand = {
  type: 'RegisterUser',
  data: { userId, username: 'ada-lovelace', name: 'Ada Lovelace', email: 'ada@example.com', passwordHash: 'h1', now },
};

/** given events → state, when command → events (or error) */
function given(...events: UserEvent[]): UserState {
  return events.reduce(userDecider.evolve, userDecider.initialState());
}
function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected the command to be rejected');
}
const registered = decideUser(register, given())[0]!;

describe('user decider', () => {
  it('registers a new user with the spec defaults', () => {
    expect(registered).toEqual({
      type: 'UserRegistered',
      data: {
        userId,
        username: 'ada-lovelace',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        bio: '',
        avatarUrl: '/images/user-image.png',
        brandColorMain: '#1A140F',
        brandColorLight: '#FAF6F2',
        archiveProfile: false,
        passwordHash: 'h1',
        registeredAt: now.toISOString(),
      },
    });
  });

  it('rejects registering the same stream twice with 409', () => {
    const error = errorOf(() => decideUser(register, given(registered)));
    expect(error.status).toBe(409);
  });

  it('updates only the fields that changed and carries the whole profile', () => {
    const events = decideUser({ type: 'UpdateProfile', data: { changes: { name: 'Ada L.', bio: 'Mathematician', email: 'ada@example.com' }, now } }, given(registered));
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.type).toBe('ProfileUpdated');
    if (event.type !== 'ProfileUpdated') return;
    expect(event.data.changed).toEqual(['name', 'bio']);
    expect(event.data).toMatchObject({ name: 'Ada L.', bio: 'Mathematician', email: 'ada@example.com', username: 'ada-lovelace', userId });
  });

  it('emits nothing when the profile is saved unchanged', () => {
    expect(decideUser({ type: 'UpdateProfile', data: { changes: { name: 'Ada Lovelace' }, now } }, given(registered))).toEqual([]);
  });

  it('folds updates into state', () => {
    const updated = decideUser({ type: 'UpdateProfile', data: { changes: { brandColorMain: '#112233' }, now } }, given(registered));
    const state = given(registered, ...updated);
    expect(state.status === 'active' && state.profile.brandColorMain).toBe('#112233');
  });

  it('changes the password', () => {
    const events = decideUser({ type: 'ChangePassword', data: { passwordHash: 'h2', now } }, given(registered));
    expect(events).toEqual([{ type: 'PasswordChanged', data: { userId, passwordHash: 'h2', changedAt: now.toISOString() } }]);
    const state = given(registered, ...events);
    expect(state.status === 'active' && state.passwordHash).toBe('h2');
  });

  it('rejects profile and password changes for a user that does not exist with 404', () => {
    expect(errorOf(() => decideUser({ type: 'UpdateProfile', data: { changes: { name: 'x' }, now } }, given())).status).toBe(404);
    expect(errorOf(() => decideUser({ type: 'ChangePassword', data: { passwordHash: 'x', now } }, given())).status).toBe(404);
  });

  it('changes the avatar and folds the new URL into the profile', () => {
    const events = decideUser({ type: 'ChangeAvatar', data: { avatarUrl: '/images/avatars/x/v1.webp', now } }, given(registered));
    expect(events).toEqual([{ type: 'AvatarChanged', data: { userId, avatarUrl: '/images/avatars/x/v1.webp', changedAt: now.toISOString() } }]);
    const state = given(registered, ...events);
    expect(state.status === 'active' && state.profile.avatarUrl).toBe('/images/avatars/x/v1.webp');
  });

  it('marks an archive profile once, and registers one directly with its bio', () => {
    const marked = decideUser({ type: 'SetArchiveProfile', data: { archiveProfile: true, now } }, given(registered));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ type: 'ArchiveStatusChanged', data: { archiveProfile: true, userId } });
    const state = given(registered, ...marked);
    expect(state.status === 'active' && state.profile.archiveProfile).toBe(true);
    expect(decideUser({ type: 'SetArchiveProfile', data: { archiveProfile: true, now } }, state)).toEqual([]);
    const archive = decideUser({ type: 'RegisterUser', data: { ...register.data, bio: 'Letters of Ada', archiveProfile: true } }, given());
    expect(archive[0]).toMatchObject({ type: 'UserRegistered', data: { archiveProfile: true, bio: 'Letters of Ada' } });
  });

  it('deletes an account once; afterwards nothing about it can change', () => {
    const events = decideUser({ type: 'DeleteUser', data: { now } }, given(registered));
    expect(events).toEqual([{ type: 'UserDeleted', data: { userId, deletedAt: now.toISOString() } }]);
    const gone = given(registered, ...events);
    expect(gone.status).toBe('deleted');
    expect(decideUser({ type: 'DeleteUser', data: { now } }, gone)).toEqual([]);
    expect(errorOf(() => decideUser({ type: 'UpdateProfile', data: { changes: { name: 'x' }, now } }, gone)).status).toBe(404);
    expect(errorOf(() => decideUser({ type: 'ChangeAvatar', data: { avatarUrl: 'x', now } }, gone)).status).toBe(404);
    expect(errorOf(() => decideUser({ type: 'RegisterUser', data: register.data }, gone)).status).toBe(409);
    expect(errorOf(() => decideUser({ type: 'DeleteUser', data: { now } }, given())).status).toBe(404);
  });
});
