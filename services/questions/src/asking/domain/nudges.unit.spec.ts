import { describe, expect, it } from 'vitest';
import { ANSWER_WINDOW_MS } from '@ques/contracts';
import { nudgeMail, nudgeTimes, releasedIn } from './nudges.js';

describe('nudges (pure)', () => {
  const deadline = new Date('2026-03-06T12:00:00Z');
  const asked = new Date(deadline.getTime() - ANSWER_WINDOW_MS);

  it('falls due 24 h, 72 h and 4 days after the question was asked', () => {
    expect(nudgeTimes(deadline).map((n) => [n.mark, (n.dueAt.getTime() - asked.getTime()) / 3_600_000])).toEqual([
      ['24h', 24],
      ['72h', 72],
      ['4d', 96],
    ]);
  });

  it('says how long is left, rounded to what the owner still has', () => {
    const at = (hoursBefore: number) => new Date(deadline.getTime() - hoursBefore * 3_600_000);
    expect(releasedIn(deadline, at(96))).toBe('in 4 days');
    expect(releasedIn(deadline, at(48))).toBe('in 2 days');
    expect(releasedIn(deadline, at(24))).toBe('in 1 day');
    expect(releasedIn(deadline, at(23.9))).toBe('in 1 day');
    expect(releasedIn(deadline, at(5))).toBe('in 5 hours');
    expect(releasedIn(deadline, at(0.2))).toBe('in 1 hour');
  });

  it('writes one reminder, or a digest listing each tip soonest first', () => {
    const tip = (question: string, amountCents: number, hours: number) => ({
      questionId: question,
      question,
      askerName: 'Tia',
      amountCents,
      currency: 'usd',
      deadline: new Date(deadline.getTime() + hours * 3_600_000),
    });
    const now = new Date(deadline.getTime() - 24 * 3_600_000);
    const base = { ownerName: 'Ada', to: 'ada@example.com', now, answerUrl: (id: string) => `https://q/admin?answer=${id}`, settingsUrl: 'https://q/s', id: 'x' };
    expect(nudgeMail({ ...base, tips: [tip('One?', 500, 0)] }).subject).toBe(
      '$5.00 held for you — released in 1 day unless you answer',
    );
    const digest = nudgeMail({ ...base, tips: [tip('Later?', 1000, 48), tip('Sooner?', 500, 0)] });
    expect(digest.subject).toBe('2 tips ($15.00) held for you — answer before they are released');
    expect(digest.text.indexOf('Sooner?')).toBeLessThan(digest.text.indexOf('Later?'));
    expect(digest.text).toContain('https://q/admin?answer=Sooner?');
    expect(digest.text).toContain('https://q/admin?answer=Later?');
  });
});
