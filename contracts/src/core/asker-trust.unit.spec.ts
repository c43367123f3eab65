import { describe, expect, it } from 'vitest';
import { countdownText, feeBreakdown, feeBreakdownText, isStatusToken } from './asker-trust.js';

describe('asker trust (issue 14)', () => {
  it('breaks a $5 tip down before paying: owner, 10 % fee, held not charged, released after 5 days, one-time', () => {
    expect(feeBreakdown(500)).toEqual({ ownerCents: 450, feeCents: 50, feePercent: 10, releaseDays: 5 });
    expect(feeBreakdownText('Ada Lovelace', 500)).toBe(
      'Ada Lovelace receives $4.50 · Ques fee (10 %) $0.50 · Your card is held, not charged, until Ada Lovelace ' +
        'answers; released automatically after 5 days. One-time tip, never recurring.',
    );
    // Fee and share always add up to the tip, to the cent.
    for (const cents of [100, 333, 999, 12_345]) {
      const b = feeBreakdown(cents);
      expect(b.ownerCents + b.feeCents).toBe(cents);
    }
  });
  it('counts down to the release in days and hours, never below zero', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(countdownText(new Date('2026-01-04T04:30:00Z'), now)).toBe('3 d 4 h');
    expect(countdownText(new Date('2026-01-01T02:05:00Z'), now)).toBe('2 h 5 min');
    expect(countdownText(new Date('2025-12-31T00:00:00Z'), now)).toBe('0 min');
  });
  it('accepts only 43-character base64url tokens', () => {
    expect(isStatusToken('a'.repeat(43))).toBe(true);
    expect(isStatusToken('a'.repeat(42))).toBe(false);
    expect(isStatusToken(`${'a'.repeat(42)}/`)).toBe(false);
  });
});
