import { CLAIM_MESSAGES, OPS_MESSAGES } from '@ques/contracts/core';
import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@ques/kit/testing';
import { userDecider, type UserCommand } from './decide.js';
import type { UserEvent } from './user.js';

const now = new Date('2026-11-21T10:00:00.000Z');
const userId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
const register: UserCommand = {
  type: 'RegisterUser',
  data: { userId, username: 'ada-lovelace', name: 'Ada Lovelace', email: 'ada@example.com', passwordHash: 'h1', now },
};

const spec = deciderSpec(userDecider);
const registered: UserEvent = {
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
    emailVerified: false,
    passwordHash: 'h1',
    registeredAt: now.toISOString(),
  },
};
const deleted: UserEvent = { type: 'UserDeleted', data: { userId, deletedAt: now.toISOString() } };

describe('user decider', () => {
  it('registers a new user with the spec defaults', () => {
    spec.given([]).when(register).then([registered]);
  });

  it('rejects registering the same stream twice with 409', () => {
    spec.given([registered]).when(register).thenThrows({ status: 409 });
  });

  it('updates only the fields that changed and carries the whole profile', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProfile', data: { changes: { name: 'Ada L.', bio: 'Mathematician', email: 'ada@example.com' }, now } })
      .then((events) => {
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({
          type: 'ProfileUpdated',
          data: { changed: ['name', 'bio'], name: 'Ada L.', bio: 'Mathematician', email: 'ada@example.com', username: 'ada-lovelace', userId },
        });
      });
  });

  it('emits nothing when the profile is saved unchanged', () => {
    spec.given([registered]).when({ type: 'UpdateProfile', data: { changes: { name: 'Ada Lovelace' }, now } }).thenNothingHappened();
  });

  it('folds updates into state', () => {
    spec
      .given([registered])
      .when({ type: 'UpdateProfile', data: { changes: { brandColorMain: '#112233' }, now } })
      .then((_events, state) => expect(state.status === 'active' && state.profile.brandColorMain).toBe('#112233'));
  });

  it('changes the password', () => {
    const events = spec
      .given([registered])
      .when({ type: 'ChangePassword', data: { passwordHash: 'h2', now } })
      .then([{ type: 'PasswordChanged', data: { userId, passwordHash: 'h2', changedAt: now.toISOString() } }]);
    const state = spec.given([registered, ...events]).state();
    expect(state.status === 'active' && state.passwordHash).toBe('h2');
  });

  it('rejects profile and password changes for a user that does not exist with 404', () => {
    spec.given([]).when({ type: 'UpdateProfile', data: { changes: { name: 'x' }, now } }).thenThrows({ status: 404 });
    spec.given([]).when({ type: 'ChangePassword', data: { passwordHash: 'x', now } }).thenThrows({ status: 404 });
  });

  it('changes the avatar and folds the new URL into the profile', () => {
    spec
      .given([registered])
      .when({ type: 'ChangeAvatar', data: { avatarUrl: '/images/avatars/x/v1.webp', now } })
      .then((events, state) => {
        expect(events).toEqual([{ type: 'AvatarChanged', data: { userId, avatarUrl: '/images/avatars/x/v1.webp', changedAt: now.toISOString() } }]);
        expect(state.status === 'active' && state.profile.avatarUrl).toBe('/images/avatars/x/v1.webp');
      });
  });

  it('marks an archive profile once, and registers one directly with its bio', () => {
    const markArchive: UserCommand = { type: 'SetArchiveProfile', data: { archiveProfile: true, now } };
    const marked = spec.given([registered]).when(markArchive).then((events, state) => {
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'ArchiveStatusChanged', data: { archiveProfile: true, userId } });
      expect(state.status === 'active' && state.profile.archiveProfile).toBe(true);
    });
    spec.given([registered, ...marked]).when(markArchive).thenNothingHappened();
    spec
      .given([])
      .when({ type: 'RegisterUser', data: { ...register.data, bio: 'Letters of Ada', archiveProfile: true } })
      .then((events) => expect(events[0]).toMatchObject({ type: 'UserRegistered', data: { archiveProfile: true, bio: 'Letters of Ada' } }));
  });

  it('deletes an account once; afterwards nothing about it can change', () => {
    spec
      .given([registered])
      .when({ type: 'DeleteUser', data: { now } })
      .then((events, state) => {
        expect(events).toEqual([deleted]);
        expect(state.status).toBe('deleted');
      });
    const gone = spec.given([registered, deleted]);
    gone.when({ type: 'DeleteUser', data: { now } }).thenNothingHappened();
    gone.when({ type: 'UpdateProfile', data: { changes: { name: 'x' }, now } }).thenThrows({ status: 404 });
    gone.when({ type: 'ChangeAvatar', data: { avatarUrl: 'x', now } }).thenThrows({ status: 404 });
    gone.when({ type: 'RegisterUser', data: register.data }).thenThrows({ status: 409 });
    spec.given([]).when({ type: 'DeleteUser', data: { now } }).thenThrows({ status: 404 });
  });

  describe('e-mail verification (ADR 0021)', () => {
    const verify = (email: string): UserCommand => ({ type: 'VerifyEmail', data: { email, now } });

    it('proves the address the link was mailed to, once', () => {
      const verified = spec.given([registered]).when(verify('ada@example.com')).then((events, state) => {
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ type: 'EmailVerified', data: { userId, email: 'ada@example.com', emailVerified: true, verifiedAt: now.toISOString() } });
        expect(events[0]!.data).not.toHaveProperty('passwordHash');
        expect(state.status === 'active' && state.profile.emailVerified).toBe(true);
      });
      spec.given([registered, ...verified]).when(verify('ada@example.com')).thenNothingHappened();
    });

    it('refuses a link mailed to an address the account no longer has (400)', () => {
      const moved = spec.given([registered]).when({ type: 'UpdateProfile', data: { changes: { email: 'new@example.com' }, now } }).then(() => {});
      spec.given([registered, ...moved]).when(verify('ada@example.com')).thenThrows({ status: 400 });
      spec.given([]).when(verify('ada@example.com')).thenThrows({ status: 400 });
    });

    it('a change of address is unverified again; other profile changes keep the proof', () => {
      const verified = spec.given([registered]).when(verify('ada@example.com')).then(() => {});
      spec
        .given([registered, ...verified])
        .when({ type: 'UpdateProfile', data: { changes: { bio: 'Analyst' }, now } })
        .then((events, state) => {
          expect(events[0]).toMatchObject({ type: 'ProfileUpdated', data: { emailVerified: true } });
          expect(state.status === 'active' && state.profile.emailVerified).toBe(true);
        });
      spec
        .given([registered, ...verified])
        .when({ type: 'UpdateProfile', data: { changes: { email: 'new@example.com' }, now } })
        .then((events, state) => {
          expect(events[0]).toMatchObject({ type: 'ProfileUpdated', data: { email: 'new@example.com', emailVerified: false, changed: ['email'] } });
          expect(state.status === 'active' && state.profile.emailVerified).toBe(false);
        });
    });
  });

  it('an approved claim turns an archive into an ordinary profile with the claimant\'s sign-in (ADR 0034)', () => {
    const archive: UserEvent = { ...registered, data: { ...registered.data, archiveProfile: true } };
    const take: UserCommand = {
      type: 'TakeOverByClaim',
      data: { claimId: 'c1', email: 'marie@example.com', emailVerified: true, passwordHash: 'claimant-hash', now },
    };
    const events = spec
      .given([archive])
      .when(take)
      .then((decided) =>
        expect(decided).toEqual([
          {
            type: 'ProfileClaimed',
            data: expect.objectContaining({ userId, username: 'ada-lovelace', archiveProfile: false, email: 'marie@example.com', emailVerified: true, passwordHash: 'claimant-hash', claimId: 'c1' }),
          },
        ]),
      );
    const state = spec.given([archive, ...events]).state();
    expect(state.status === 'active' && [state.passwordHash, state.profile.archiveProfile, state.profile.email]).toEqual(['claimant-hash', false, 'marie@example.com']);
    // Only an archive can be claimed; a profile that stopped being one refuses.
    spec.given([registered]).when(take).thenThrows({ status: 409 });
  });

  it('four eyes (ADR 0054): the console marks only an account registered as an archive; a marked real account is never taken over', () => {
    const consoleMark: UserCommand = { type: 'SetArchiveProfile', data: { archiveProfile: true, now, archiveOriginOnly: true } };
    spec.given([registered]).when(consoleMark).thenThrows({ status: 409, message: OPS_MESSAGES.realAccount });
    const archive: UserEvent = { ...registered, data: { ...registered.data, archiveProfile: true } };
    const unmarked: UserEvent = { type: 'ArchiveStatusChanged', data: { ...archive.data, archiveProfile: false, changedAt: now.toISOString() } };
    spec.given([archive, unmarked]).when(consoleMark).then((events) => expect(events).toHaveLength(1));
    // The CLI marked a real account: it is an archive on its page, but a claim cannot take its sign-in.
    const cliMarked: UserEvent = { type: 'ArchiveStatusChanged', data: { ...registered.data, archiveProfile: true, changedAt: now.toISOString() } };
    spec
      .given([registered, cliMarked])
      .when({ type: 'TakeOverByClaim', data: { claimId: 'c1', email: 'x@example.com', emailVerified: true, passwordHash: 'h', now } })
      .thenThrows({ status: 409, message: CLAIM_MESSAGES.notArchive });
  });
});
