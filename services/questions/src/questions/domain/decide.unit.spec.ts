import { describe, expect, it } from 'vitest';
import { AppError } from '@ques/kit/errors';
import {
  decideQuestion,
  MESSAGES,
  questionDecider,
  QUESTION_NOT_FOUND,
  type QuestionCommand,
} from './decide.js';
import {
  isAsker,
  isPublic,
  type Actor,
  type Asker,
  type QuestionEvent,
  type QuestionFacts,
  type QuestionState,
  type Recipient,
  type Tip,
} from './question.js';

const t0 = new Date('2026-11-21T10:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const DAY = 24 * 3600_000;
const questionId = '0b5f3c1e-8f4a-4d8e-9b1e-2f6a7c9d0e11';

const ada: Recipient = {
  userId: '11111111-1111-4111-8111-111111111111',
  username: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
};
const bobUser: Actor = { userId: '22222222-2222-4222-8222-222222222222', email: 'bob@example.com' };
const eve: Actor = { userId: '33333333-3333-4333-8333-333333333333', email: 'eve@example.com' };
const adaActor: Actor = { userId: ada.userId, email: ada.email };
const guest: Asker = { userId: null, username: 'guest', name: 'Grace', email: 'grace@example.com' };
const bob: Asker = { userId: bobUser.userId, username: 'bob', name: 'Bob', email: 'bob@example.com' };
const tip: Tip = { amount: 500, currency: 'usd', paymentRef: 'pi_123' };

function given(...events: QuestionEvent[]): QuestionState {
  return events.reduce(questionDecider.evolve, questionDecider.initialState());
}
function facts(state: QuestionState): QuestionFacts {
  if (state.status === 'none') throw new Error('no question');
  return state;
}
function rejection(command: QuestionCommand, state: QuestionState): { status: number; message: string } {
  try {
    decideQuestion(command, state);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return { status: (e as AppError).status, message: (e as AppError).message };
  }
  throw new Error('expected the command to be rejected');
}
/** Decide, then fold: the events and the state they lead to. */
function run(command: QuestionCommand, state: QuestionState) {
  const events = decideQuestion(command, state);
  return { events, state: events.reduce(questionDecider.evolve, state) };
}

const ask = (asker: Asker = guest): QuestionCommand => ({
  type: 'AskQuestion',
  data: {
    questionId,
    recipient: ada,
    asker,
    question: 'How do engines think?',
    detail: 'Analytical ones',
    now: t0,
  },
});
const asked = (asker: Asker = guest) => decideQuestion(ask(asker), given())[0]!;
const submitted = (asker: Asker = guest): QuestionEvent =>
  decideQuestion(
    {
      type: 'SubmitTippedQuestion',
      data: { questionId, recipient: ada, asker, question: 'Paid question?', detail: '', tip, now: t0 },
    },
    given(),
  )[0]!;
const authorize = (
  over: Partial<{ paymentRef: string; amount: number; currency: string }> = {},
): QuestionCommand => ({
  type: 'ConfirmTipAuthorization',
  data: { paymentRef: tip.paymentRef, amount: tip.amount, currency: tip.currency, now: t0, ...over },
});
const tippedAsked = (asker: Asker = guest) => decideQuestion(authorize(), given(submitted(asker)))[0]!;
const answer = (
  actor: Actor = adaActor,
  over: Partial<{
    answer: string;
    tags: string[];
    displayOnProfile: boolean;
    replierName: string | null;
    now: Date;
  }> = {},
): QuestionCommand => ({
  type: 'PostAnswer',
  data: {
    actor,
    answer: 'With cards',
    tags: ['engines'],
    displayOnProfile: true,
    replierName: null,
    now: later(1000),
    ...over,
  },
});
const answered = (...before: QuestionEvent[]) => decideQuestion(answer(), given(...before))[0]!;
const edit = (
  actor: Actor = adaActor,
  text = 'With punched cards',
  tags: string[] | null = null,
): QuestionCommand => ({
  type: 'EditAnswer',
  data: { actor, answer: text, tags, now: later(2000) },
});
const visibility = (displayOnProfile: boolean, actor: Actor = adaActor): QuestionCommand => ({
  type: 'ChangeVisibility',
  data: { actor, displayOnProfile, now: later(3000) },
});
const del = (actor: Actor = adaActor): QuestionCommand => ({
  type: 'DeleteByReceiver',
  data: { actor, now: later(4000) },
});
const withdraw = (actor: Actor): QuestionCommand => ({
  type: 'WithdrawQuestion',
  data: { actor, now: later(5000) },
});
const expire = (now: Date): QuestionCommand => ({ type: 'ExpireAnswerWindow', data: { now } });
const curate: QuestionCommand = {
  type: 'CurateQuestion',
  data: {
    questionId,
    owner: ada,
    question: 'Favourite number?',
    detail: '',
    answer: 'Bernoulli numbers',
    source: 'Notes, 1843',
    tags: ['maths'],
    displayOnProfile: true,
    replierName: 'Ada',
    now: t0,
  },
};

describe('asking', () => {
  it('asks a free question: pending, no tip, no deadline', () => {
    const { events, state } = run(ask(), given());
    expect(events).toEqual([
      {
        type: 'QuestionAsked',
        data: {
          questionId,
          recipient: ada,
          asker: guest,
          question: 'How do engines think?',
          detail: 'Analytical ones',
          tip: null,
          askedAt: t0.toISOString(),
          answerDeadline: null,
        },
      },
    ]);
    expect(facts(state)).toMatchObject({
      status: 'pending',
      tipStatus: 'none',
      answerDeadline: null,
      displayOnProfile: true,
      deletedByReceiver: false,
    });
    expect(isPublic(state)).toBe(false);
  });

  it('refuses to ask on an existing stream with 409', () => {
    expect(rejection(ask(), given(asked()))).toEqual({ status: 409, message: MESSAGES.exists });
  });
});

describe('tipped questions (payments)', () => {
  it('submits a tipped question that waits for the card authorization', () => {
    const state = given(submitted());
    expect(facts(state)).toMatchObject({
      status: 'awaiting_payment',
      tip,
      tipStatus: 'awaiting_authorization',
    });
  });

  it('treats the same checkout submitted again as a no-op, and another one as a conflict', () => {
    const state = given(submitted());
    expect(
      decideQuestion(
        {
          type: 'SubmitTippedQuestion',
          data: {
            questionId,
            recipient: ada,
            asker: guest,
            question: 'Paid question?',
            detail: '',
            tip,
            now: t0,
          },
        },
        state,
      ),
    ).toEqual([]);
    const other = rejection(
      {
        type: 'SubmitTippedQuestion',
        data: {
          questionId,
          recipient: ada,
          asker: guest,
          question: 'x',
          detail: '',
          tip: { ...tip, paymentRef: 'pi_other' },
          now: t0,
        },
      },
      state,
    );
    expect(other).toEqual({ status: 409, message: MESSAGES.exists });
    expect(
      rejection(
        {
          type: 'SubmitTippedQuestion',
          data: { questionId, recipient: ada, asker: guest, question: 'x', detail: '', tip, now: t0 },
        },
        given(asked()),
      ).status,
    ).toBe(409);
  });

  it('asks the question once the tip is authorized, with the text, the held tip and a deadline 5 days later', () => {
    const { events, state } = run(authorize(), given(submitted()));
    expect(events).toEqual([
      {
        type: 'QuestionAsked',
        data: {
          questionId,
          recipient: ada,
          asker: guest,
          question: 'Paid question?',
          detail: '',
          tip,
          askedAt: t0.toISOString(),
          answerDeadline: later(5 * DAY).toISOString(),
        },
      },
    ]);
    expect(facts(state)).toMatchObject({ status: 'pending', tipStatus: 'held' });
  });

  it('ignores a redelivered authorization and rejects one for an unknown question or a different tip', () => {
    expect(decideQuestion(authorize(), given(submitted(), tippedAsked()))).toEqual([]);
    expect(rejection(authorize(), given())).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
    for (const over of [{ paymentRef: 'pi_x' }, { amount: 600 }, { currency: 'eur' }]) {
      expect(rejection(authorize(over), given(submitted()))).toEqual({
        status: 422,
        message: MESSAGES.tipMismatch,
      });
    }
  });

  it('keeps a question awaiting payment invisible: the recipient cannot act on it and the asker cannot withdraw it', () => {
    const state = given(submitted(bob));
    expect(rejection(answer(), state)).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
    expect(rejection(withdraw(bobUser), state)).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
  });
});

describe('curating', () => {
  it('curates an answered, shown Q&A without asker or tip', () => {
    const { events, state } = run(curate, given());
    expect(events[0]).toMatchObject({
      type: 'QuestionCurated',
      data: {
        questionId,
        recipient: ada,
        answer: 'Bernoulli numbers',
        source: 'Notes, 1843',
        tags: ['maths'],
        displayOnProfile: true,
      },
    });
    expect(facts(state)).toMatchObject({
      status: 'answered',
      isCurated: true,
      asker: null,
      tipStatus: 'none',
    });
    expect(isPublic(state)).toBe(true);
  });
  it('refuses to curate over an existing question with 409', () => {
    expect(rejection(curate, given(asked())).status).toBe(409);
  });
  it('lets the owner edit, hide and delete a curated Q&A, but nobody can withdraw it', () => {
    const state = given(decideQuestion(curate, given())[0]!);
    expect(decideQuestion(edit(), state)[0]?.type).toBe('AnswerEdited');
    expect(decideQuestion(visibility(false), state)[0]?.type).toBe('QuestionVisibilityChanged');
    expect(decideQuestion(del(), state)[0]?.type).toBe('QuestionDeletedByReceiver');
    expect(rejection(withdraw(adaActor), state)).toEqual({ status: 403, message: MESSAGES.onlyAsker });
  });
});

describe('answering', () => {
  it('answers a pending free question: no tip to capture, the recipient is the default replier', () => {
    const { events, state } = run(answer(), given(asked()));
    expect(events).toEqual([
      {
        type: 'AnswerPosted',
        data: {
          questionId,
          recipientUserId: ada.userId,
          askerUserId: null,
          answer: 'With cards',
          tags: ['engines'],
          displayOnProfile: true,
          replierName: 'Ada Lovelace',
          answeredAt: later(1000).toISOString(),
          tipToCapture: null,
        },
      },
    ]);
    expect(facts(state)).toMatchObject({ status: 'answered', answer: 'With cards', tags: ['engines'] });
    expect(isPublic(state)).toBe(true);
  });

  it('hands the held tip to capture when a tipped question is answered in time', () => {
    const { events, state } = run(
      answer(adaActor, { replierName: 'Anonymous', displayOnProfile: false }),
      given(submitted(), tippedAsked()),
    );
    expect(events[0]).toMatchObject({
      type: 'AnswerPosted',
      data: { tipToCapture: tip, replierName: 'Anonymous', displayOnProfile: false, askerUserId: null },
    });
    expect(decideQuestion(answer(), given(asked(bob)))[0]).toMatchObject({
      data: { askerUserId: bob.userId, recipientUserId: ada.userId },
    });
    expect(facts(state).tipStatus).toBe('capturing');
    expect(isPublic(state)).toBe(false);
  });

  it('rejects answering a withdrawn, deleted or already answered question with 409', () => {
    const withdrawn = given(asked(bob), decideQuestion(withdraw(bobUser), given(asked(bob)))[0]!);
    expect(rejection(answer(), withdrawn)).toEqual({
      status: 409,
      message: `${MESSAGES.withdrawn} It can no longer be answered.`,
    });
    const deleted = given(asked(), decideQuestion(del(), given(asked()))[0]!);
    expect(rejection(answer(), deleted)).toEqual({
      status: 409,
      message: `${MESSAGES.deleted} It can no longer be answered.`,
    });
    expect(rejection(answer(), given(asked(), answered(asked())))).toEqual({
      status: 409,
      message: MESSAGES.alreadyAnswered,
    });
  });

  it('hides a pending question from strangers (404) and tells the asker it is not theirs to answer (403)', () => {
    expect(rejection(answer(eve), given(asked(bob)))).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
    expect(rejection(answer(bobUser), given(asked(bob)))).toEqual({
      status: 403,
      message: MESSAGES.onlyRecipient,
    });
    expect(rejection(answer(), given())).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
  });
});

describe('editing an answer', () => {
  const state = given(asked(), answered(asked()));
  it('edits the answer and keeps the tags when none are sent', () => {
    const { events, state: next } = run(edit(), state);
    expect(events).toEqual([
      {
        type: 'AnswerEdited',
        data: {
          questionId,
          answer: 'With punched cards',
          tags: ['engines'],
          editedAt: later(2000).toISOString(),
        },
      },
    ]);
    expect(facts(next).answer).toBe('With punched cards');
    expect(run(edit(adaActor, 'With cards', ['looms']), state).state).toMatchObject({ tags: ['looms'] });
  });
  it('emits nothing for an unchanged answer', () => {
    expect(decideQuestion(edit(adaActor, 'With cards', ['engines']), state)).toEqual([]);
  });
  it('rejects editing before an answer exists, after withdrawal or deletion, and by anyone but the recipient', () => {
    expect(rejection(edit(), given(asked()))).toEqual({ status: 409, message: MESSAGES.notAnsweredYet });
    const withdrawn = given(asked(bob), decideQuestion(withdraw(bobUser), given(asked(bob)))[0]!);
    expect(rejection(edit(), withdrawn)).toEqual({ status: 409, message: MESSAGES.withdrawn });
    const deleted = given(asked(), answered(asked()), decideQuestion(del(), state)[0]!);
    expect(rejection(edit(), deleted)).toEqual({ status: 409, message: MESSAGES.deleted });
    expect(rejection(edit(eve), state)).toEqual({ status: 403, message: MESSAGES.onlyRecipient }); // public: it exists
  });
});

describe('visibility', () => {
  const state = given(asked(), answered(asked()));
  it('hides and shows an answered question; the same value again is no event', () => {
    const hidden = run(visibility(false), state);
    expect(hidden.events).toEqual([
      {
        type: 'QuestionVisibilityChanged',
        data: { questionId, displayOnProfile: false, changedAt: later(3000).toISOString() },
      },
    ]);
    expect(isPublic(hidden.state)).toBe(false);
    expect(decideQuestion(visibility(false), hidden.state)).toEqual([]);
    expect(isPublic(run(visibility(true), hidden.state).state)).toBe(true);
  });
  it('turns a stranger away with 404 once the question is hidden, 403 while it is public', () => {
    expect(rejection(visibility(false, eve), state).status).toBe(403);
    const hidden = run(visibility(false), state).state;
    expect(rejection(visibility(true, eve), hidden)).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
  });
  it('rejects changing a withdrawn or deleted question', () => {
    const withdrawn = given(asked(bob), decideQuestion(withdraw(bobUser), given(asked(bob)))[0]!);
    expect(rejection(visibility(false), withdrawn)).toEqual({ status: 409, message: MESSAGES.withdrawn });
    const deleted = run(del(), state).state;
    expect(rejection(visibility(true), deleted)).toEqual({ status: 409, message: MESSAGES.deleted });
  });
});

describe('deletion by the receiver', () => {
  it('deletes a pending tipped question and releases its tip', () => {
    const { events, state } = run(del(), given(submitted(), tippedAsked()));
    expect(events).toEqual([
      {
        type: 'QuestionDeletedByReceiver',
        data: { questionId, deletedAt: later(4000).toISOString(), tipToRelease: tip },
      },
    ]);
    expect(facts(state)).toMatchObject({ deletedByReceiver: true, tipStatus: 'released' });
  });
  it('deletes an answered question without releasing anything and takes it off the public page', () => {
    const { events, state } = run(del(), given(asked(), answered(asked())));
    expect(events[0]).toMatchObject({ type: 'QuestionDeletedByReceiver', data: { tipToRelease: null } });
    expect(isPublic(state)).toBe(false);
  });
  it('rejects deleting twice, deleting a withdrawn question, and deletion by others', () => {
    const deleted = run(del(), given(asked())).state;
    expect(rejection(del(), deleted)).toEqual({ status: 409, message: MESSAGES.alreadyDeleted });
    const withdrawn = given(asked(bob), decideQuestion(withdraw(bobUser), given(asked(bob)))[0]!);
    expect(rejection(del(), withdrawn)).toEqual({ status: 409, message: MESSAGES.withdrawn });
    expect(rejection(del(eve), given(asked()))).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
    expect(rejection(del(bobUser), given(asked(bob)))).toEqual({
      status: 403,
      message: MESSAGES.onlyRecipient,
    });
  });
});

describe('withdrawal by the asker', () => {
  it('lets a signed-in asker withdraw a pending question', () => {
    const { events, state } = run(withdraw(bobUser), given(asked(bob)));
    expect(events).toEqual([
      {
        type: 'QuestionWithdrawn',
        data: { questionId, withdrawnAt: later(5000).toISOString(), tipToRelease: null },
      },
    ]);
    expect(facts(state).status).toBe('withdrawn');
  });
  it('lets a signed-in user withdraw the guest question asked with their e-mail (case-insensitive), releasing its tip', () => {
    const grace: Actor = { userId: '44444444-4444-4444-8444-444444444444', email: 'Grace@Example.com' };
    expect(isAsker(given(asked()), grace)).toBe(true);
    const { events, state } = run(withdraw(grace), given(submitted(), tippedAsked()));
    expect(events[0]).toMatchObject({ type: 'QuestionWithdrawn', data: { tipToRelease: tip } });
    expect(facts(state).tipStatus).toBe('released');
  });
  it('rejects withdrawing an answered, already withdrawn or deleted question with 409', () => {
    expect(rejection(withdraw(bobUser), given(asked(bob), answered(asked(bob))))).toEqual({
      status: 409,
      message: MESSAGES.answeredCannotWithdraw,
    });
    const withdrawn = run(withdraw(bobUser), given(asked(bob))).state;
    expect(rejection(withdraw(bobUser), withdrawn)).toEqual({
      status: 409,
      message: MESSAGES.alreadyWithdrawn,
    });
    const deleted = run(del(), given(asked(bob))).state;
    expect(rejection(withdraw(bobUser), deleted)).toEqual({
      status: 409,
      message: MESSAGES.deletedCannotWithdraw,
    });
  });
  it('turns away the recipient (403) and strangers (404)', () => {
    expect(rejection(withdraw(adaActor), given(asked(bob)))).toEqual({
      status: 403,
      message: MESSAGES.onlyAsker,
    });
    expect(rejection(withdraw(eve), given(asked(bob)))).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
    expect(rejection(withdraw(eve), given())).toEqual({ status: 404, message: QUESTION_NOT_FOUND });
  });
});

describe('the 5-day answer window', () => {
  const tipped = given(submitted(), tippedAsked());
  it('does nothing before the deadline', () => {
    expect(decideQuestion(expire(later(5 * DAY - 1)), tipped)).toEqual([]);
  });
  it('expires an unanswered tipped question at the deadline: tip released, still pending', () => {
    const { events, state } = run(expire(later(5 * DAY)), tipped);
    expect(events).toEqual([
      {
        type: 'AnswerWindowExpired',
        data: {
          questionId,
          deadline: later(5 * DAY).toISOString(),
          expiredAt: later(5 * DAY).toISOString(),
          tipToRelease: tip,
        },
      },
    ]);
    expect(facts(state)).toMatchObject({
      status: 'pending',
      answerWindowExpired: true,
      tipStatus: 'released',
    });
    expect(decideQuestion(expire(later(6 * DAY)), state)).toEqual([]);
  });
  it('keeps an expired question answerable, for free', () => {
    const expired = run(expire(later(5 * DAY)), tipped).state;
    const { events, state } = run(answer(adaActor, { now: later(6 * DAY) }), expired);
    expect(events[0]).toMatchObject({ type: 'AnswerPosted', data: { tipToCapture: null } });
    expect(facts(state)).toMatchObject({ status: 'answered', tipStatus: 'released' });
  });
  it('never expires free, answered, withdrawn or deleted questions', () => {
    const now = later(30 * DAY);
    expect(decideQuestion(expire(now), given(asked()))).toEqual([]);
    expect(decideQuestion(expire(now), run(answer(), tipped).state)).toEqual([]);
    expect(
      decideQuestion(expire(now), run(withdraw({ userId: 'x', email: 'grace@example.com' }), tipped).state),
    ).toEqual([]);
    expect(decideQuestion(expire(now), run(del(), tipped).state)).toEqual([]);
    expect(decideQuestion(expire(now), given())).toEqual([]);
  });
});

describe('payment confirmations', () => {
  const capturing = run(answer(), given(submitted(), tippedAsked())).state;
  it('records the capture once', () => {
    const { events, state } = run(
      { type: 'ConfirmTipCapture', data: { paymentRef: 'pi_123', now: later(9000) } },
      capturing,
    );
    expect(events).toEqual([
      {
        type: 'TipCaptureConfirmed',
        data: { questionId, paymentRef: 'pi_123', capturedAt: later(9000).toISOString() },
      },
    ]);
    expect(facts(state).tipStatus).toBe('captured');
    expect(
      decideQuestion({ type: 'ConfirmTipCapture', data: { paymentRef: 'pi_123', now: later(9000) } }, state),
    ).toEqual([]);
  });
  it('rejects a capture for another payment, before the answer, or for an unknown question', () => {
    expect(
      rejection({ type: 'ConfirmTipCapture', data: { paymentRef: 'pi_x', now: t0 } }, capturing),
    ).toEqual({ status: 422, message: MESSAGES.tipMismatch });
    expect(
      rejection(
        { type: 'ConfirmTipCapture', data: { paymentRef: 'pi_123', now: t0 } },
        given(submitted(), tippedAsked()),
      ),
    ).toEqual({
      status: 409,
      message: MESSAGES.captureWithoutAnswer,
    });
    expect(
      rejection({ type: 'ConfirmTipCapture', data: { paymentRef: 'pi_123', now: t0 } }, given()).status,
    ).toBe(404);
  });
  it('records a release payments made on its own (e.g. a failed capture), confirms ours silently, never after a capture', () => {
    const released = run({ type: 'ConfirmTipRelease', data: { paymentRef: 'pi_123', now: t0 } }, capturing);
    expect(released.events[0]?.type).toBe('TipReleaseConfirmed');
    expect(facts(released.state).tipStatus).toBe('released');
    const withdrawn = run(del(), given(submitted(), tippedAsked())).state;
    expect(
      decideQuestion({ type: 'ConfirmTipRelease', data: { paymentRef: 'pi_123', now: t0 } }, withdrawn),
    ).toEqual([]);
    const captured = run(
      { type: 'ConfirmTipCapture', data: { paymentRef: 'pi_123', now: t0 } },
      capturing,
    ).state;
    expect(
      rejection({ type: 'ConfirmTipRelease', data: { paymentRef: 'pi_123', now: t0 } }, captured),
    ).toEqual({ status: 409, message: MESSAGES.releaseAfterCapture });
    expect(
      rejection({ type: 'ConfirmTipRelease', data: { paymentRef: 'pi_x', now: t0 } }, capturing).status,
    ).toBe(422);
    expect(
      rejection({ type: 'ConfirmTipRelease', data: { paymentRef: 'pi_123', now: t0 } }, given()).status,
    ).toBe(404);
  });
});
