import { describe, expect, it } from 'vitest';
import { usernameFromName, ZSignupRequest, ZUpdateProfileRequest } from './identity.js';

describe('usernameFromName (spec §3)', () => {
  it('lowercases, trims, turns spaces into hyphens and drops non-word characters', () => {
    expect(usernameFromName('  Ada Lovelace ')).toBe('ada-lovelace');
    expect(usernameFromName("Dr. O'Brien & Co")).toBe('dr-obrien--co');
    expect(usernameFromName('Émile Zola')).toBe('mile-zola');
  });
});

describe('identity request schemas', () => {
  it('requires name, email and password on signup with readable messages', () => {
    const result = ZSignupRequest.safeParse({ name: '', email: 'a@b.co', password: 'longenough' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Name is required');
    const email = ZSignupRequest.safeParse({ name: 'A', email: 'nope', password: 'longenough' });
    expect(email.error?.issues[0]?.message).toBe('Please enter a valid email address');
  });
  it('normalises the e-mail', () => {
    expect(ZSignupRequest.parse({ name: 'A', email: ' Ada@Example.COM ', password: 'longenough' }).email).toBe('ada@example.com');
  });
  it('accepts the full stored profile, ignoring unknown fields, and checks colours', () => {
    const parsed = ZUpdateProfileRequest.parse({ _id: 'x', token: 't', name: 'Ada', brandColorMain: '#aabbcc' });
    expect(parsed).toEqual({ name: 'Ada', brandColorMain: '#aabbcc' });
    expect(ZUpdateProfileRequest.safeParse({ brandColorMain: 'red' }).success).toBe(false);
  });
});

describe('identity calls (contracts/src/api/identity.ts)', async () => {
  const { API_CALLS, BROWSER_CALLS, identityApi, identityBrowserCalls } = await import('./api/index.js');
  const { ZProfilePutBody, ZUser } = await import('./identity.js');

  it('lists every /api/users call in API_CALLS and the avatar images in BROWSER_CALLS only', () => {
    for (const call of Object.values(identityApi)) {
      expect(API_CALLS).toContain(call);
      // The live handle check (issue 28) is the one identity call outside /api/users.
      expect(call.path.startsWith('/api/users') || call === identityApi.handleAvailability).toBe(true);
    }
    expect(BROWSER_CALLS).toContain(identityBrowserCalls.avatarImage);
    expect(API_CALLS).not.toContain(identityBrowserCalls.avatarImage);
    expect(identityApi.uploadAvatar.bodyKind).toBe('multipart');
  });

  it('answers with strict shapes: an undeclared field is an error, not a silent extra', () => {
    const user = {
      _id: 'u', id: 'u', username: 'ada', name: 'Ada', email: 'a@b.co', emailVerified: false, bio: '', avatarUrl: '',
      brandColorMain: '#000000', brandColorLight: '#FFFFFF', archiveProfile: false, createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(ZUser.safeParse(user).success).toBe(true);
    expect(ZUser.safeParse({ ...user, passwordHash: 'x' }).success).toBe(false);
  });

  it('refuses a profile body that is not an object with a clear message', () => {
    for (const body of [[1], 'text', 3, null, undefined]) {
      expect(ZProfilePutBody.safeParse(body).error?.issues[0]?.message).toBe('The profile must be sent as a JSON object.');
    }
    expect(ZProfilePutBody.safeParse({ ...{ _id: 'x', token: 't' }, newPassword: '' }).error?.issues[0]?.message).toBe('Please enter a new password.');
  });
});
