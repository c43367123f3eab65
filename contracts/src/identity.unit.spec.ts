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
