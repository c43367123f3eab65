import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@ques/kit/testing';
import {
  MESSAGES,
  questionDecider,
  QUESTION_NOT_FOUND,
  type QuestionCommand,
} from './decide.js';
import { isAsker, isPublic, viewerOf, type Actor } from './access.js';
import {
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
const bobUser: Actor = { userId: '22222222-2222-4222-8222-222222222222', verifiedEmail: 'bob@example.com' };
const eve: Actor = { userId: '33333333-3333-4333-8333-333333333333', verifiedEmail: 'eve@example.com' };
const adaActor: Actor = { userId: ada.userId, verifiedEmail: ada.email };
const guest: Asker = { userId: null, username: 'guest', name: 'Grace', email: 'grace@example.com' };
const bob: Asker = { userId: bobUser.userId, username: 'bob', name: 'Bob', email: 'bob@example.com' };
const tip: Tip = { amount: 500, currency: 'usd', paymentRef: 'pi_123' };

const spec = deciderSpec(questionDecider);
function facts(state: QuestionState): QuestionFacts {
  if (state.status === 'none') throw new Error('no question');
  return state;
}
/** The events a command decides on top of a history (to build later histories from). */
const decided = (history: QuestionEvent[], command: QuestionCommand) => questionDecider.decide(command, spec.given(history).state());
/** The history after a command. */
const after = (history: QuestionEvent[], command: QuestionCommand) => [...history, ...decided(history, command)];
const stateOf = (history: QuestionEvent[]) => spec.given(history).state();

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
const asked = (asker: Asker = guest) => decided([], ask(asker))[0]!;
const submit = (asker: Asker = guest): QuestionCommand => ({
  type: 'SubmitTippedQuestion',
  data: { questionId, recipient: ada, asker, question: 'Paid question?', detail: '', tip, now: t0 },
});
const submitted = (asker: Asker = guest): QuestionEvent => decided([], submit(asker))[0]!;
const authorize = (
  over: Partial<{ paymentRef: string; amount: number; currency: string }> = {},
): QuestionCommand => ({
  type: 'ConfirmTipAuthorization',
  data: { paymentRef: tip.paymentRef, amount: tip.amount, currency: tip.currency, now: t0, ...over },
});
const tippedAsked = (asker: Asker = guest) => decided([submitted(asker)], authorize())[0]!;
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
const answered = (...before: QuestionEvent[]) => decided(before, answer())[0]!;
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
    spec
      .given([])
      .when(ask())
      .then((events, state) => {
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
  });

  it('refuses to ask on an existing stream with 409', () => {
    spec.given([asked()]).when(ask()).thenThrows({ status: 409, message: MESSAGES.exists });
  });
});

describe('tipped questions (payments)', () => {
  it('submits a tipped question that waits for the card authorization', () => {
    expect(facts(stateOf([submitted()]))).toMatchObject({
      status: 'awaiting_payment',
      tip,
      tipStatus: 'awaiting_authorization',
    });
  });

  it('treats the same checkout submitted again as a no-op, and another one as a conflict', () => {
    spec.given([submitted()]).when(submit()).thenNothingHappened();
    spec
      .given([submitted()])
      .when({
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
      })
      .thenThrows({ status: 409, message: MESSAGES.exists });
    spec
      .given([asked()])
      .when({
        type: 'SubmitTippedQuestion',
        data: { questionId, recipient: ada, asker: guest, question: 'x', detail: '', tip, now: t0 },
      })
      .thenThrows({ status: 409 });
  });

  it('asks the question once the tip is authorized, with the text, the held tip and a deadline 5 days later', () => {
    spec
      .given([submitted()])
      .when(authorize())
      .then((events, state) => {
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
  });

  it('ignores a redelivered authorization and rejects one for an unknown question or a different tip', () => {
    spec.given([submitted(), tippedAsked()]).when(authorize()).thenNothingHappened();
    spec.given([]).when(authorize()).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
    for (const over of [{ paymentRef: 'pi_x' }, { amount: 600 }, { currency: 'eur' }]) {
      spec.given([submitted()]).when(authorize(over)).thenThrows({ status: 422, message: MESSAGES.tipMismatch });
    }
  });

  it('keeps a question awaiting payment invisible: the recipient cannot act on it and the asker cannot withdraw it', () => {
    const awaiting = spec.given([submitted(bob)]);
    awaiting.when(answer()).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
    awaiting.when(withdraw(bobUser)).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
  });
});

describe('curating', () => {
  it('curates an answered, shown Q&A without asker or tip', () => {
    spec
      .given([])
      .when(curate)
      .then((events, state) => {
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
  });
  it('refuses to curate over an existing question with 409', () => {
    spec.given([asked()]).when(curate).thenThrows({ status: 409 });
  });
  it('lets the owner edit, hide and delete a curated Q&A, but nobody can withdraw it', () => {
    const curated = spec.given(after([], curate));
    curated.when(edit()).then((events) => expect(events[0]?.type).toBe('AnswerEdited'));
    curated.when(visibility(false)).then((events) => expect(events[0]?.type).toBe('QuestionVisibilityChanged'));
    curated.when(del()).then((events) => expect(events[0]?.type).toBe('QuestionDeletedByReceiver'));
    curated.when(withdraw(adaActor)).thenThrows({ status: 403, message: MESSAGES.onlyAsker });
  });
});

describe('answering', () => {
  it('answers a pending free question: no tip to capture, the recipient is the default replier', () => {
    spec
      .given([asked()])
      .when(answer())
      .then((events, state) => {
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
  });

  it('hands the held tip to capture when a tipped question is answered in time', () => {
    spec
      .given([submitted(), tippedAsked()])
      .when(answer(adaActor, { replierName: 'Anonymous', displayOnProfile: false }))
      .then((events, state) => {
        expect(events[0]).toMatchObject({
          type: 'AnswerPosted',
          data: { tipToCapture: tip, replierName: 'Anonymous', displayOnProfile: false, askerUserId: null },
        });
        expect(facts(state).tipStatus).toBe('capturing');
        expect(isPublic(state)).toBe(false);
      });
    spec
      .given([asked(bob)])
      .when(answer())
      .then((events) => expect(events[0]).toMatchObject({ data: { askerUserId: bob.userId, recipientUserId: ada.userId } }));
  });

  it('rejects answering a withdrawn, deleted or already answered question with 409', () => {
    spec
      .given(after([asked(bob)], withdraw(bobUser)))
      .when(answer())
      .thenThrows({ status: 409, message: `${MESSAGES.withdrawn} It can no longer be answered.` });
    spec
      .given(after([asked()], del()))
      .when(answer())
      .thenThrows({ status: 409, message: `${MESSAGES.deleted} It can no longer be answered.` });
    spec
      .given([asked(), answered(asked())])
      .when(answer(adaActor, { answer: 'Another answer' }))
      .thenThrows({ status: 409, message: MESSAGES.alreadyAnswered });
    spec
      .given([asked(), answered(asked())])
      .when(answer(adaActor, { tags: ['other'] }))
      .thenThrows({ status: 409, message: MESSAGES.alreadyAnswered });
  });

  it('treats the very same answer again as already done (a retried PUT appends no second AnswerPosted)', () => {
    spec.given([asked(), answered(asked())]).when(answer()).thenNothingHappened();
    const tipped = [submitted(), tippedAsked()];
    spec.given([...tipped, decided(tipped, answer())[0]!]).when(answer()).thenNothingHappened();
  });

  it('hides a pending question from strangers (404) and tells the asker it is not theirs to answer (403)', () => {
    spec.given([asked(bob)]).when(answer(eve)).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
    spec.given([asked(bob)]).when(answer(bobUser)).thenThrows({ status: 403, message: MESSAGES.onlyRecipient });
    spec.given([]).when(answer()).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
  });
});

describe('editing an answer', () => {
  const answeredHistory = [asked(), answered(asked())];
  it('edits the answer and keeps the tags when none are sent', () => {
    spec
      .given(answeredHistory)
      .when(edit())
      .then((events, state) => {
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
        expect(facts(state).answer).toBe('With punched cards');
      });
    spec
      .given(answeredHistory)
      .when(edit(adaActor, 'With cards', ['looms']))
      .then((_events, state) => expect(state).toMatchObject({ tags: ['looms'] }));
  });
  it('emits nothing for an unchanged answer', () => {
    spec.given(answeredHistory).when(edit(adaActor, 'With cards', ['engines'])).thenNothingHappened();
  });
  it('rejects editing before an answer exists, after withdrawal or deletion, and by anyone but the recipient', () => {
    spec.given([asked()]).when(edit()).thenThrows({ status: 409, message: MESSAGES.notAnsweredYet });
    spec.given(after([asked(bob)], withdraw(bobUser))).when(edit()).thenThrows({ status: 409, message: MESSAGES.withdrawn });
    spec.given(after(answeredHistory, del())).when(edit()).thenThrows({ status: 409, message: MESSAGES.deleted });
    spec.given(answeredHistory).when(edit(eve)).thenThrows({ status: 403, message: MESSAGES.onlyRecipient }); // public: it exists
  });
  it("changes a curated Q&A's source (an operator edits an archive's answer, issue 18); the same source is no change", () => {
    const curatedHistory = decided([], curate);
    const withSource = (source: string, text = 'Bernoulli numbers'): QuestionCommand => ({
      type: 'EditAnswer',
      data: { actor: adaActor, answer: text, tags: ['maths'], source, now: later(2000) },
    });
    spec
      .given(curatedHistory)
      .when(withSource('Note G, 1843'))
      .then((events, state) => {
        expect(events).toEqual([
          {
            type: 'AnswerEdited',
            data: { questionId, answer: 'Bernoulli numbers', tags: ['maths'], editedAt: later(2000).toISOString(), source: 'Note G, 1843' },
          },
        ]);
        expect(facts(state).source).toBe('Note G, 1843');
      });
    spec.given(curatedHistory).when(withSource('Notes, 1843')).thenNothingHappened();
    // An asked question has no source: only its answer changes.
    spec
      .given(answeredHistory)
      .when({ type: 'EditAnswer', data: { actor: adaActor, answer: 'With cards', tags: ['engines'], source: 'x', now: later(2000) } })
      .thenNothingHappened();
  });
});

describe('visibility', () => {
  const answeredHistory = [asked(), answered(asked())];
  it('hides and shows an answered question; the same value again is no event', () => {
    const hidden = spec
      .given(answeredHistory)
      .when(visibility(false))
      .then((events, state) => {
        expect(events).toEqual([
          {
            type: 'QuestionVisibilityChanged',
            data: { questionId, displayOnProfile: false, changedAt: later(3000).toISOString() },
          },
        ]);
        expect(isPublic(state)).toBe(false);
      });
    spec.given([...answeredHistory, ...hidden]).when(visibility(false)).thenNothingHappened();
    spec
      .given([...answeredHistory, ...hidden])
      .when(visibility(true))
      .then((_events, state) => expect(isPublic(state)).toBe(true));
  });
  it('turns a stranger away with 404 once the question is hidden, 403 while it is public', () => {
    spec.given(answeredHistory).when(visibility(false, eve)).thenThrows({ status: 403 });
    spec.given(after(answeredHistory, visibility(false))).when(visibility(true, eve)).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
  });
  it('rejects changing a withdrawn or deleted question', () => {
    spec.given(after([asked(bob)], withdraw(bobUser))).when(visibility(false)).thenThrows({ status: 409, message: MESSAGES.withdrawn });
    spec.given(after(answeredHistory, del())).when(visibility(true)).thenThrows({ status: 409, message: MESSAGES.deleted });
  });
});

describe('deletion by the receiver', () => {
  it('deletes a pending tipped question and releases its tip', () => {
    spec
      .given([submitted(), tippedAsked()])
      .when(del())
      .then((events, state) => {
        expect(events).toEqual([
          {
            type: 'QuestionDeletedByReceiver',
            data: { questionId, deletedAt: later(4000).toISOString(), tipToRelease: tip },
          },
        ]);
        expect(facts(state)).toMatchObject({ deletedByReceiver: true, tipStatus: 'released' });
      });
  });
  it('deletes an answered question without releasing anything and takes it off the public page', () => {
    spec
      .given([asked(), answered(asked())])
      .when(del())
      .then((events, state) => {
        expect(events[0]).toMatchObject({ type: 'QuestionDeletedByReceiver', data: { tipToRelease: null } });
        expect(isPublic(state)).toBe(false);
      });
  });
  it('rejects deleting twice, deleting a withdrawn question, and deletion by others', () => {
    spec.given(after([asked()], del())).when(del()).thenThrows({ status: 409, message: MESSAGES.alreadyDeleted });
    spec.given(after([asked(bob)], withdraw(bobUser))).when(del()).thenThrows({ status: 409, message: MESSAGES.withdrawn });
    spec.given([asked()]).when(del(eve)).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
    spec.given([asked(bob)]).when(del(bobUser)).thenThrows({ status: 403, message: MESSAGES.onlyRecipient });
  });
});

describe('withdrawal by the asker', () => {
  it('lets a signed-in asker withdraw a pending question', () => {
    spec
      .given([asked(bob)])
      .when(withdraw(bobUser))
      .then((events, state) => {
        expect(events).toEqual([
          {
            type: 'QuestionWithdrawn',
            data: { questionId, withdrawnAt: later(5000).toISOString(), tipToRelease: null },
          },
        ]);
        expect(facts(state).status).toBe('withdrawn');
      });
  });
  it('lets a signed-in user withdraw the guest question asked with their verified e-mail (case-insensitive), releasing its tip', () => {
    const grace: Actor = { userId: '44444444-4444-4444-8444-444444444444', verifiedEmail: 'Grace@Example.com' };
    expect(isAsker(stateOf([asked()]), grace)).toBe(true);
    spec
      .given([submitted(), tippedAsked()])
      .when(withdraw(grace))
      .then((events, state) => {
        expect(events[0]).toMatchObject({ type: 'QuestionWithdrawn', data: { tipToRelease: tip } });
        expect(facts(state).tipStatus).toBe('released');
      });
  });
  it('does not treat an account as a guest question\'s asker while its e-mail is unverified (no verified e-mail: 404)', () => {
    const unverified: Actor = { userId: '44444444-4444-4444-8444-444444444444', verifiedEmail: null };
    expect(isAsker(stateOf([asked()]), unverified)).toBe(false);
    expect(viewerOf(stateOf([asked()]), unverified)).toBeNull();
    spec.given([asked()]).when(withdraw(unverified)).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
  });
  it('rejects withdrawing an answered, already withdrawn or deleted question with 409', () => {
    spec
      .given([asked(bob), answered(asked(bob))])
      .when(withdraw(bobUser))
      .thenThrows({ status: 409, message: MESSAGES.answeredCannotWithdraw });
    spec.given(after([asked(bob)], withdraw(bobUser))).when(withdraw(bobUser)).thenThrows({ status: 409, message: MESSAGES.alreadyWithdrawn });
    spec.given(after([asked(bob)], del())).when(withdraw(bobUser)).thenThrows({ status: 409, message: MESSAGES.deletedCannotWithdraw });
  });
  it('turns away the recipient (403) and strangers (404)', () => {
    spec.given([asked(bob)]).when(withdraw(adaActor)).thenThrows({ status: 403, message: MESSAGES.onlyAsker });
    spec.given([asked(bob)]).when(withdraw(eve)).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
    spec.given([]).when(withdraw(eve)).thenThrows({ status: 404, message: QUESTION_NOT_FOUND });
  });
});

describe('the 5-day answer window', () => {
  const tipped = [submitted(), tippedAsked()];
  it('does nothing before the deadline', () => {
    spec.given(tipped).when(expire(later(5 * DAY - 1))).thenNothingHappened();
  });
  it('expires an unanswered tipped question at the deadline: tip released, still pending', () => {
    const expired = spec
      .given(tipped)
      .when(expire(later(5 * DAY)))
      .then((events, state) => {
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
      });
    spec.given([...tipped, ...expired]).when(expire(later(6 * DAY))).thenNothingHappened();
  });
  it('keeps an expired question answerable, for free', () => {
    spec
      .given(after(tipped, expire(later(5 * DAY))))
      .when(answer(adaActor, { now: later(6 * DAY) }))
      .then((events, state) => {
        expect(events[0]).toMatchObject({ type: 'AnswerPosted', data: { tipToCapture: null } });
        expect(facts(state)).toMatchObject({ status: 'answered', tipStatus: 'released' });
      });
  });
  it('never expires free, answered, withdrawn or deleted questions', () => {
    const now = later(30 * DAY);
    spec.given([asked()]).when(expire(now)).thenNothingHappened();
    spec.given(after(tipped, answer())).when(expire(now)).thenNothingHappened();
    spec.given(after(tipped, withdraw({ userId: 'x', verifiedEmail: 'grace@example.com' }))).when(expire(now)).thenNothingHappened();
    spec.given(after(tipped, del())).when(expire(now)).thenNothingHappened();
    spec.given([]).when(expire(now)).thenNothingHappened();
  });
});

describe('payment confirmations', () => {
  const capturing = after([submitted(), tippedAsked()], answer());
  const confirmCapture = (paymentRef: string, now: Date): QuestionCommand => ({ type: 'ConfirmTipCapture', data: { paymentRef, now } });
  const confirmRelease = (paymentRef: string, now: Date): QuestionCommand => ({ type: 'ConfirmTipRelease', data: { paymentRef, now } });
  it('records the capture once', () => {
    const captured = spec
      .given(capturing)
      .when(confirmCapture('pi_123', later(9000)))
      .then((events, state) => {
        expect(events).toEqual([
          {
            type: 'TipCaptureConfirmed',
            data: { questionId, paymentRef: 'pi_123', capturedAt: later(9000).toISOString() },
          },
        ]);
        expect(facts(state).tipStatus).toBe('captured');
      });
    spec.given([...capturing, ...captured]).when(confirmCapture('pi_123', later(9000))).thenNothingHappened();
  });
  it('rejects a capture for another payment, before the answer, or for an unknown question', () => {
    spec.given(capturing).when(confirmCapture('pi_x', t0)).thenThrows({ status: 422, message: MESSAGES.tipMismatch });
    spec
      .given([submitted(), tippedAsked()])
      .when(confirmCapture('pi_123', t0))
      .thenThrows({ status: 409, message: MESSAGES.captureWithoutAnswer });
    spec.given([]).when(confirmCapture('pi_123', t0)).thenThrows({ status: 404 });
  });
  it('records a release payments made on its own (e.g. a failed capture), confirms ours silently, never after a capture', () => {
    spec
      .given(capturing)
      .when(confirmRelease('pi_123', t0))
      .then((events, state) => {
        expect(events[0]?.type).toBe('TipReleaseConfirmed');
        expect(facts(state).tipStatus).toBe('released');
      });
    spec.given(after([submitted(), tippedAsked()], del())).when(confirmRelease('pi_123', t0)).thenNothingHappened();
    spec
      .given(after(capturing, confirmCapture('pi_123', t0)))
      .when(confirmRelease('pi_123', t0))
      .thenThrows({ status: 409, message: MESSAGES.releaseAfterCapture });
    spec.given(capturing).when(confirmRelease('pi_x', t0)).thenThrows({ status: 422 });
    spec.given([]).when(confirmRelease('pi_123', t0)).thenThrows({ status: 404 });
  });

  it('lets go of a question whose checkout ended unpaid, only while it waits for that checkout', () => {
    const expire = (paymentRef = tip.paymentRef): QuestionCommand => ({
      type: 'ExpireTippedCheckout',
      data: { paymentRef, now: later(60_000) },
    });
    const expired = decided([submitted()], expire());
    expect(expired).toEqual([
      {
        type: 'TippedCheckoutExpired',
        data: { questionId, paymentRef: tip.paymentRef, expiredAt: later(60_000).toISOString() },
      },
    ]);
    const gone = [submitted(), ...expired];
    expect(stateOf(gone)).toMatchObject({ status: 'checkout_expired', tipStatus: 'released' });
    // Repeated, another checkout, never handed over, already asked: nothing.
    spec.given(gone).when(expire()).thenNothingHappened();
    spec.given([submitted()]).when(expire('pi_other')).thenNothingHappened();
    spec.given([]).when(expire()).thenNothingHappened();
    spec.given([submitted(), tippedAsked()]).when(expire()).thenNothingHappened();
    // Late payments events for it change nothing, and nobody can act on it.
    spec.given(gone).when(authorize()).thenNothingHappened();
    spec.given(gone).when(confirmRelease('pi_123', t0)).thenNothingHappened();
    spec.given(gone).when(answer()).thenThrows({ status: 404 });
    spec.given(gone).when({ type: 'WithdrawQuestion', data: { actor: bobUser, now: t0 } }).thenThrows({ status: 404 });
  });
});

describe('an operator hides an answer (issue 18)', () => {
  const hide = (reason = 'Names a private person'): QuestionCommand => ({
    type: 'HideByOperator',
    data: { reason, operator: 'olive', reportId: null, now: later(6000) },
  });
  const history = () => [asked(), answered(asked())];

  it('takes the answer off the public page with the reason, once', () => {
    const events = decided(history(), hide(' Names a private person '));
    expect(events).toEqual([
      {
        type: 'AnswerHiddenByOperator',
        data: { questionId, reason: 'Names a private person', operator: 'olive', reportId: null, hiddenAt: later(6000).toISOString() },
      },
    ]);
    const state = facts(stateOf([...history(), ...events]));
    expect(state.displayOnProfile).toBe(false);
    expect(state.hiddenByOperator).toEqual({ reason: 'Names a private person', hiddenAt: later(6000).toISOString() });
    expect(isPublic(state)).toBe(false);
    // A retried hide with the same reason is already so.
    spec.given([...history(), ...events]).when(hide()).thenNothingHappened();
  });

  it('keeps the owner from showing it again', () => {
    const hidden = after(history(), hide());
    spec.given(hidden).when(visibility(true)).thenThrows({ status: 409, message: 'Ques hid this answer from public view: Names a private person' });
    spec.given(hidden).when(visibility(false)).thenNothingHappened();
  });

  it('cannot hide a question that does not exist', () => {
    spec.given([]).when(hide()).thenThrows({ status: 404 });
  });
});
