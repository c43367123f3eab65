import { ANSWER_WINDOW_MS, QUESTION_MESSAGES, QUESTION_NOT_FOUND } from '@ques/contracts';
import { conflict, notFound, requireAccess, unprocessable, decider, unreachable } from '@ques/kit/domain';
import { accessMessages, isAsker, isRecipient, viewerOf, type Actor } from './access.js';
import {
  evolveQuestion,
  initialQuestionState,
  isInvisible,
  type CuratedQA,
  type QuestionEvent,
  type QuestionFacts,
  type QuestionState,
  type Recipient,
  type Redaction,
  type Submission,
  type Tip,
} from './question.js';

/** What the owner is told when they try to show an answer an operator hid. */
export const hiddenMessage = (reason: string) => `Ques hid this answer from public view: ${reason}`;

export type QuestionCommand =
  | {
      type: 'AskQuestion';
      data: Submission & {
        /** The asker's consent (issue 14). */
        isPrivate?: boolean;
        now: Date;
      };
    }
  | {
      type: 'SubmitTippedQuestion';
      data: Submission & {
        tip: Tip;
        isPrivate?: boolean;
        now: Date;
      };
    }
  | {
      type: 'ConfirmTipAuthorization';
      data: { paymentRef: string; amount: number; currency: string; now: Date };
    }
  | {
      type: 'CurateQuestion';
      data: CuratedQA & { owner: Recipient; now: Date };
    }
  | {
      type: 'PostAnswer';
      data: {
        actor: Actor;
        answer: string;
        tags: string[];
        displayOnProfile: boolean;
        replierName: string | null;
        /** The public wording (issue 14); null: as asked. */
        redaction?: Redaction | null;
        now: Date;
      };
    }
  | {
      type: 'EditAnswer';
      data: {
        actor: Actor;
        answer: string;
        tags: string[] | null;
        redaction?: Redaction | null;
        /** Curated Q&A only (issue 18: an operator edits an archive's answer): its new source; absent: unchanged. */
        source?: string;
        now: Date;
      };
    }
  | { type: 'ChangeVisibility'; data: { actor: Actor; displayOnProfile: boolean; now: Date } }
  | { type: 'HideByOperator'; data: { reason: string; operator: string; reportId: string | null; now: Date } }
  | { type: 'DeleteByReceiver'; data: { actor: Actor; now: Date } }
  /** By its asker's account, or (`actor` null, `viaStatusLink`) by whoever holds its status page's link (issue 14). */
  | { type: 'WithdrawQuestion'; data: { actor: Actor | null; viaStatusLink?: boolean; now: Date } }
  | { type: 'ExpireAnswerWindow'; data: { now: Date } }
  | { type: 'ConfirmTipCapture'; data: { paymentRef: string; now: Date } }
  | { type: 'ConfirmTipRelease'; data: { paymentRef: string; now: Date } }
  /** Payments says the checkout ended unpaid (`CheckoutExpired`). */
  | { type: 'ExpireTippedCheckout'; data: { paymentRef: string; now: Date } };

export { QUESTION_NOT_FOUND };
/** The sentences of the rules below (declared in contracts, so the /api documentation lists them). */
export const MESSAGES = QUESTION_MESSAGES;

/** The question as its recipient acts on it: exists, visible to them (not mid-checkout), theirs. */
function asRecipient(state: QuestionState, actor: Actor): QuestionFacts {
  if (state.status === 'none' || isInvisible(state.status)) throw notFound(QUESTION_NOT_FOUND);
  // A party who may see it (its asker, or anyone when it is public) gets a 403; a stranger the 404 of "no such question".
  requireAccess(
    isRecipient(state, actor),
    viewerOf(state, actor) !== null,
    accessMessages(MESSAGES.onlyRecipient),
  );
  return state;
}

/** A withdrawn or deleted question takes no more changes: the 409, worded for the command at hand. */
function requireOpen(s: QuestionFacts, messages: { withdrawn: string; deleted: string }): void {
  if (s.status === 'withdrawn') throw conflict(messages.withdrawn);
  if (s.deletedByReceiver) throw conflict(messages.deleted);
}

/** Payments confirming what it did to a tip: the question exists and holds that very tip (else a 422). */
function withTip(state: QuestionState, paymentRef: string): QuestionFacts {
  if (state.status === 'none') throw notFound(QUESTION_NOT_FOUND);
  if (state.tip?.paymentRef !== paymentRef) throw unprocessable(MESSAGES.tipMismatch);
  return state;
}

/** What a new question's event records of the command: the submission, and the asker's consent only when private. */
function submissionOf(d: Submission & { isPrivate?: boolean }): Submission & { askerPrivate?: boolean } {
  const { questionId, recipient, asker, question, detail } = d;
  return { questionId, recipient, asker, question, detail, ...(d.isPrivate ? { askerPrivate: true } : {}) };
}

const heldTip = (s: QuestionFacts): Tip | null => (s.tip && s.tipStatus === 'held' ? s.tip : null);

const sameTags = (a: string[], b: string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

export function decideQuestion(command: QuestionCommand, state: QuestionState): QuestionEvent[] {
  switch (command.type) {
    case 'AskQuestion': {
      if (state.status !== 'none') throw conflict(MESSAGES.exists);
      const { now } = command.data;
      return [
        {
          type: 'QuestionAsked',
          data: {
            ...submissionOf(command.data),
            tip: null,
            askedAt: now.toISOString(),
            answerDeadline: null,
          },
        },
      ];
    }
    case 'SubmitTippedQuestion': {
      const { tip, now } = command.data;
      // Payments may retry its call: the same checkout again is a no-op, anything else is a clash.
      if (
        state.status === 'awaiting_payment' &&
        state.tip?.paymentRef === tip.paymentRef &&
        state.tip.amount === tip.amount
      )
        return [];
      if (state.status !== 'none') throw conflict(MESSAGES.exists);
      return [
        {
          type: 'TippedQuestionSubmitted',
          data: { ...submissionOf(command.data), tip, submittedAt: now.toISOString() },
        },
      ];
    }
    case 'ConfirmTipAuthorization': {
      if (state.status === 'none') throw notFound(QUESTION_NOT_FOUND);
      // Redelivered or late: the question was already asked (or moved on).
      if (state.status !== 'awaiting_payment') return [];
      const { paymentRef, amount, currency, now } = command.data;
      const tip = state.tip!;
      if (tip.paymentRef !== paymentRef || tip.amount !== amount || tip.currency !== currency)
        throw unprocessable(MESSAGES.tipMismatch);
      return [
        {
          type: 'QuestionAsked',
          data: {
            questionId: state.questionId,
            recipient: state.recipient,
            asker: state.asker!,
            question: state.question,
            detail: state.detail,
            tip,
            askedAt: now.toISOString(),
            answerDeadline: new Date(now.getTime() + ANSWER_WINDOW_MS).toISOString(),
            ...(state.askerPrivate ? { askerPrivate: true } : {}),
          },
        },
      ];
    }
    case 'CurateQuestion': {
      if (state.status !== 'none') throw conflict(MESSAGES.exists);
      const d = command.data;
      return [
        {
          type: 'QuestionCurated',
          data: {
            questionId: d.questionId,
            recipient: d.owner,
            question: d.question,
            detail: d.detail,
            answer: d.answer,
            source: d.source,
            tags: d.tags,
            displayOnProfile: d.displayOnProfile,
            replierName: d.replierName,
            curatedAt: d.now.toISOString(),
          },
        },
      ];
    }
    case 'PostAnswer': {
      const s = asRecipient(state, command.data.actor);
      requireOpen(s, { withdrawn: MESSAGES.withdrawnCannotAnswer, deleted: MESSAGES.deletedCannotAnswer });
      const { answer, tags, replierName, now } = command.data;
      // An answer an operator hid stays off the public page whatever the owner chooses.
      const displayOnProfile = command.data.displayOnProfile && !s.hiddenByOperator;
      if (s.status === 'answered') {
        // Answering is a PUT: the very same answer again (a retry whose first attempt committed) is already so.
        if (answer === s.answer && sameTags(tags, s.tags) && displayOnProfile === s.displayOnProfile)
          return [];
        throw conflict(MESSAGES.alreadyAnswered);
      }
      return [
        {
          type: 'AnswerPosted',
          data: {
            questionId: s.questionId,
            recipientUserId: s.recipient.userId,
            askerUserId: s.asker?.userId ?? null,
            answer,
            tags,
            displayOnProfile,
            replierName: replierName ?? s.recipient.name,
            answeredAt: now.toISOString(),
            // After the window expired the tip is already released: the answer is free.
            tipToCapture: heldTip(s),
            ...(command.data.redaction ? { redaction: command.data.redaction } : {}),
          },
        },
      ];
    }
    case 'EditAnswer': {
      const s = asRecipient(state, command.data.actor);
      requireOpen(s, MESSAGES);
      if (s.status !== 'answered') throw conflict(MESSAGES.notAnsweredYet);
      const { answer, now } = command.data;
      const tags = command.data.tags ?? s.tags;
      const redaction = command.data.redaction ?? null;
      const source = s.isCurated && command.data.source !== undefined && command.data.source !== (s.source ?? '') ? command.data.source : undefined;
      if (answer === s.answer && sameTags(tags, s.tags) && !redaction && source === undefined) return [];
      return [
        {
          type: 'AnswerEdited',
          data: {
            questionId: s.questionId,
            answer,
            tags,
            editedAt: now.toISOString(),
            ...(redaction ? { redaction } : {}),
            ...(source !== undefined ? { source } : {}),
          },
        },
      ];
    }
    case 'ChangeVisibility': {
      const s = asRecipient(state, command.data.actor);
      requireOpen(s, MESSAGES);
      const { displayOnProfile, now } = command.data;
      if (s.displayOnProfile === displayOnProfile) return [];
      if (displayOnProfile && s.hiddenByOperator) throw conflict(hiddenMessage(s.hiddenByOperator.reason));
      return [
        {
          type: 'QuestionVisibilityChanged',
          data: { questionId: s.questionId, displayOnProfile, changedAt: now.toISOString() },
        },
      ];
    }
    case 'HideByOperator': {
      if (state.status === 'none' || isInvisible(state.status)) throw notFound(QUESTION_NOT_FOUND);
      const reason = command.data.reason.trim();
      // A retried hide (same reason) is already so.
      if (state.hiddenByOperator?.reason === reason) return [];
      return [
        {
          type: 'AnswerHiddenByOperator',
          data: {
            questionId: state.questionId,
            reason,
            operator: command.data.operator,
            reportId: command.data.reportId,
            hiddenAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'DeleteByReceiver': {
      const s = asRecipient(state, command.data.actor);
      requireOpen(s, { withdrawn: MESSAGES.withdrawn, deleted: MESSAGES.alreadyDeleted });
      return [
        {
          type: 'QuestionDeletedByReceiver',
          data: {
            questionId: s.questionId,
            deletedAt: command.data.now.toISOString(),
            tipToRelease: heldTip(s),
          },
        },
      ];
    }
    case 'WithdrawQuestion': {
      const { actor, viaStatusLink, now } = command.data;
      if (state.status === 'none' || isInvisible(state.status)) throw notFound(QUESTION_NOT_FOUND);
      if (!viaStatusLink)
        requireAccess(
          !!actor && isAsker(state, actor),
          viewerOf(state, actor) !== null,
          accessMessages(MESSAGES.onlyAsker),
        );
      if (state.status === 'withdrawn') throw conflict(MESSAGES.alreadyWithdrawn);
      if (state.status === 'answered') throw conflict(MESSAGES.answeredCannotWithdraw);
      if (state.deletedByReceiver) throw conflict(MESSAGES.deletedCannotWithdraw);
      return [
        {
          type: 'QuestionWithdrawn',
          data: {
            questionId: state.questionId,
            withdrawnAt: now.toISOString(),
            tipToRelease: heldTip(state),
          },
        },
      ];
    }
    case 'ExpireAnswerWindow': {
      // The scheduler's call: anything but a still-held tip past its deadline is simply nothing to do.
      if (state.status !== 'pending' || state.deletedByReceiver || state.answerWindowExpired) return [];
      const tip = heldTip(state);
      if (!tip || !state.answerDeadline) return [];
      const { now } = command.data;
      if (now.getTime() < Date.parse(state.answerDeadline)) return [];
      return [
        {
          type: 'AnswerWindowExpired',
          data: {
            questionId: state.questionId,
            deadline: state.answerDeadline,
            expiredAt: now.toISOString(),
            tipToRelease: tip,
          },
        },
      ];
    }
    case 'ConfirmTipCapture': {
      const { paymentRef, now } = command.data;
      const s = withTip(state, paymentRef);
      if (s.tipStatus === 'captured') return [];
      if (s.tipStatus !== 'capturing') throw conflict(MESSAGES.captureWithoutAnswer);
      return [
        {
          type: 'TipCaptureConfirmed',
          data: { questionId: s.questionId, paymentRef, capturedAt: now.toISOString() },
        },
      ];
    }
    case 'ConfirmTipRelease': {
      const { paymentRef, now } = command.data;
      const s = withTip(state, paymentRef);
      if (s.tipStatus === 'captured') throw conflict(MESSAGES.releaseAfterCapture);
      // Already released by our own decision (withdrawn, deleted, expired): payments is just confirming it.
      if (s.tipStatus === 'released') return [];
      return [
        {
          type: 'TipReleaseConfirmed',
          data: { questionId: s.questionId, paymentRef, releasedAt: now.toISOString() },
        },
      ];
    }
    case 'ExpireTippedCheckout': {
      // Only a question still waiting for this very checkout goes; for anything else (never handed over, already
      // asked, expired before, another checkout) the expiry is stale or repeated: nothing to do.
      if (state.status !== 'awaiting_payment' || state.tip?.paymentRef !== command.data.paymentRef) return [];
      return [
        {
          type: 'TippedCheckoutExpired',
          data: {
            questionId: state.questionId,
            paymentRef: command.data.paymentRef,
            expiredAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    default:
      return unreachable(command);
  }
}

export const questionDecider = decider(initialQuestionState, evolveQuestion, decideQuestion);
