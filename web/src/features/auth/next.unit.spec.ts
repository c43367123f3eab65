import { describe, expect, it } from 'vitest';
import { nextPath, nextQuery } from './next';

describe('nextPath', () => {
  it('returns a path on this site', () => {
    expect(nextPath('?next=%2Fask%2Fmarie-curie%2Fclaim')).toBe('/ask/marie-curie/claim');
    expect(nextQuery('?next=%2Fask%2Fmarie-curie%2Fclaim')).toBe('?next=%2Fask%2Fmarie-curie%2Fclaim');
  });
  it('never leaves the site', () => {
    for (const bad of [
      '?next=https%3A%2F%2Fevil.example',
      '?next=%2F%2Fevil.example',
      '?next=%2F%5Cevil.example',
      '?next=javascript%3Aalert(1)',
      '',
    ])
      expect(nextPath(bad)).toBe('/');
    expect(nextQuery('')).toBe('');
  });
});
