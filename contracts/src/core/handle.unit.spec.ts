import { describe, expect, it } from 'vitest';
import { ZChangeHandleRequest, ZSignupRequest } from '../identity.js';
import { HANDLE_MESSAGES as H, handleCandidates, handleFromName, handleProblem, RESERVED_HANDLES } from './handle.js';

describe('the public handle rule (issue 28)', () => {
  it('accepts lowercase letters, digits and single hyphens, 3 to 30 characters', () => {
    for (const ok of ['mira', 'mira-castell', 'ada2', 'abc', 'a'.repeat(30), 'x-1-y']) expect(handleProblem(ok)).toBeNull();
    // Capital A–Z are only lowered (not a look-alike): "Mira" is "mira".
    expect(handleProblem('Mira-Castell')).toBeNull();
    expect(ZChangeHandleRequest.parse({ username: ' Mira-Castell ' }).username).toBe('mira-castell');
  });

  it('refuses spaces with their own message', () => {
    expect(handleProblem('mira castell')).toBe(H.spaces);
    expect(handleProblem('mira\tcastell')).toBe(H.spaces);
  });

  it('refuses unicode look-alikes instead of transliterating them', () => {
    // Cyrillic "а" (U+0430) in place of the Latin a, full-width letters, an accent, a German sharp s.
    expect(handleProblem('mir\u0430')).toBe(H.lookalike);
    expect(handleProblem('ｍｉｒａ')).toBe(H.lookalike);
    expect(handleProblem('josé')).toBe(H.lookalike);
    expect(handleProblem('strasse-ß')).toBe(H.lookalike);
  });

  it('refuses 1 and 60 characters, other symbols and bad hyphens', () => {
    expect(handleProblem('m')).toBe(H.shape);
    expect(handleProblem('ab')).toBe(H.shape);
    expect(handleProblem('m'.repeat(60))).toBe(H.shape);
    expect(handleProblem('m'.repeat(31))).toBe(H.shape);
    expect(handleProblem('mira_castell')).toBe(H.shape);
    expect(handleProblem('mira.castell')).toBe(H.shape);
    expect(handleProblem('-mira')).toBe(H.hyphens);
    expect(handleProblem('mira-')).toBe(H.hyphens);
    expect(handleProblem('mira--castell')).toBe(H.hyphens);
    expect(handleProblem('')).toBe(H.required);
  });

  it("refuses the app's own words", () => {
    for (const word of ['admin', 'ops', 'api', 'ask', 'q', 'login', 'signup', 'logout', 'settings', 'support', 'embed', 'sitemap', 'verify-email', 'reset-password', 'terms-of-use', 'privacy-policy', 'www', 'ques', 'guest'])
      expect(handleProblem(word), word).toBe(H.reserved);
    expect(RESERVED_HANDLES.has('q')).toBe(true);
    expect(handleProblem('ADMIN')).toBe(H.reserved);
  });

  it('is the rule of the sign-up and rename bodies (their error is its message)', () => {
    const signup = ZSignupRequest.safeParse({ name: 'Mira', email: 'm@example.com', password: 'longenough', username: 'admin' });
    expect(signup.error?.issues[0]?.message).toBe(H.reserved);
    expect(ZChangeHandleRequest.safeParse({ username: 'mir\u0430' }).error?.issues[0]?.message).toBe(H.lookalike);
    // Older clients send no username: still valid.
    expect(ZSignupRequest.safeParse({ name: 'Mira', email: 'm@example.com', password: 'longenough' }).success).toBe(true);
  });

  it('derives the default from the name (spec §3) so that it fits the rule', () => {
    expect(handleFromName('  Mira Castell ')).toBe('mira-castell');
    expect(handleFromName("Dr. O'Brien & Co")).toBe('dr-o-brien-co');
    expect(handleFromName('Émile Zola')).toBe('emile-zola');
    expect(handleFromName('Ann_Lee')).toBe('ann-lee');
    const first = (name: string) => handleCandidates(name).next().value;
    expect(first('Mira Castell')).toBe('mira-castell');
    // Too short or reserved: numbered.
    expect(first('Al')).toBe('al-2');
    expect(first('Admin')).toBe('admin-2');
    expect(first('宮崎')).toBe('owner');
    const long = [...take(handleCandidates('x'.repeat(80)), 2)];
    expect(long[0]).toHaveLength(30);
    expect(handleProblem(long[1]!)).toBeNull();
  });
});

function* take<T>(items: Iterable<T>, n: number): Generator<T> {
  for (const item of items) {
    if (n-- <= 0) return;
    yield item;
  }
}
