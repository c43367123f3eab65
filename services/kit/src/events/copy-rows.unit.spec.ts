import { describe, expect, it } from 'vitest';
import { copyText } from './copy-rows.js';

describe('copyText (COPY text format, ADR 0039)', () => {
  it('writes null, booleans, numbers, dates and JSON as COPY reads them', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText(undefined)).toBe('\\N');
    expect(copyText(true)).toBe('t');
    expect(copyText(false)).toBe('f');
    expect(copyText(42)).toBe('42');
    expect(copyText(new Date('2026-11-23T07:00:00.000Z'))).toBe('2026-11-23T07:00:00.000Z');
    expect(copyText(['a', 'b'])).toBe('["a","b"]');
  });

  it('escapes the backslash, tab, newline and carriage return, and leaves other text as it is', () => {
    expect(copyText('plain text, “quoted” — ü')).toBe('plain text, “quoted” — ü');
    expect(copyText('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyText({ s: 'x\ty' })).toBe('{"s":"x\\\\ty"}');
  });
});
