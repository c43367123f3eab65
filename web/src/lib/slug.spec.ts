import { describe, expect, it } from 'vitest';
import { questionPath, slugify } from './slug';

describe('slugify (spec §2: lowercased, punctuation removed, spaces to hyphens)', () => {
  it('lowercases the question and turns spaces into hyphens', () => {
    expect(slugify('How Do I Start')).toBe('how-do-i-start');
  });

  it('removes punctuation', () => {
    expect(slugify("What's your rate, per hour?!")).toBe('whats-your-rate-per-hour');
    expect(slugify('A/B testing: yes or no?')).toBe('ab-testing-yes-or-no');
  });

  it('collapses runs of whitespace and trims the ends', () => {
    expect(slugify('  many   spaces\there \n ')).toBe('many-spaces-here');
  });

  it('keeps digits and letters of other scripts', () => {
    expect(slugify('Café au lait in 2025?')).toBe('café-au-lait-in-2025');
  });

  it('keeps hyphens of hyphenated words and caps the slug at 120 characters (same rule as the server)', () => {
    expect(slugify('Is a well-known brand worth it?')).toBe('is-a-well-known-brand-worth-it');
    expect(slugify('word '.repeat(60))).toHaveLength(120);
  });

  it('gives an empty slug for punctuation-only text', () => {
    expect(slugify('?!…')).toBe('');
  });
});

describe('questionPath', () => {
  it('builds /ask/{username}/question/{id}/{slug}', () => {
    expect(questionPath('ada', 'q1', 'Is it free?')).toBe('/ask/ada/question/q1/is-it-free');
  });

  it('omits the slug segment when the question has no letters or digits', () => {
    expect(questionPath('ada', 'q1', '???')).toBe('/ask/ada/question/q1');
  });

  it('encodes path segments', () => {
    expect(questionPath('a b', 'x/y', 'Hi')).toBe('/ask/a%20b/question/x%2Fy/hi');
  });
});
