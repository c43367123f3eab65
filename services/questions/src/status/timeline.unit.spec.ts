import { describe, expect, it } from 'vitest';
import type { QuestionEvent } from '../questions/domain/question.js';
import { statusTimeline } from './timeline.js';

const tip = { amount: 500, currency: 'usd', paymentRef: 'pi_1' };
const at = (minute: number) => `2026-12-01T12:${String(minute).padStart(2, '0')}:00.000Z`;
const ev = (type: QuestionEvent['type'], data: Record<string, unknown>) => ({ type, data }) as QuestionEvent;

describe("a status page's timeline, from the question's own events (issue 28)", () => {
  it('tipped and unanswered in time: asked at checkout, held at authorization, expired and released at the deadline', () => {
    expect(
      statusTimeline([
        ev('TippedQuestionSubmitted', { submittedAt: at(0), tip }),
        ev('QuestionAsked', { askedAt: at(1), tip, answerDeadline: at(59) }),
        ev('QuestionVisibilityChanged', { changedAt: at(2) }),
        ev('AnswerWindowExpired', { expiredAt: at(59), deadline: at(59), tipToRelease: tip }),
        ev('TipReleaseConfirmed', { releasedAt: at(59), paymentRef: 'pi_1' }),
      ]),
    ).toEqual([
      { step: 'asked', at: at(0) },
      { step: 'held', at: at(1) },
      { step: 'expired', at: at(59) },
      { step: 'released', at: at(59) },
    ]);
  });

  it('free: asked, answered; declined by the owner with nothing to release', () => {
    expect(statusTimeline([ev('QuestionAsked', { askedAt: at(0), tip: null }), ev('AnswerPosted', { answeredAt: at(5) })])).toEqual([
      { step: 'asked', at: at(0) },
      { step: 'answered', at: at(5) },
    ]);
    expect(statusTimeline([ev('QuestionAsked', { askedAt: at(0), tip: null }), ev('QuestionDeletedByReceiver', { deletedAt: at(3), tipToRelease: null })])).toEqual([
      { step: 'asked', at: at(0) },
      { step: 'deleted', at: at(3) },
    ]);
  });

  it("a hold the provider cancelled on its own is released when payments says so", () => {
    expect(
      statusTimeline([ev('QuestionAsked', { askedAt: at(0), tip }), ev('TipReleaseConfirmed', { releasedAt: at(9), paymentRef: 'pi_1' })]),
    ).toEqual([
      { step: 'asked', at: at(0) },
      { step: 'held', at: at(0) },
      { step: 'released', at: at(9) },
    ]);
  });
});
