/** The question aggregate: events, state and evolve. Pure — no I/O (lint-enforced). */
import type { CurateDraft } from '@ques/contracts';

/** The owner a question is addressed to, as the recipients read model knew them when it was asked. */
export interface Recipient {
  userId: string;
  username: string;
  name: string;
  email: string;
}

/** Who asked: a signed-in user (userId set) or a guest (userId null, name and e-mail typed in). */
export interface Asker {
  userId: string | null;
  /** The asker's username, or "guest". */
  username: string;
  name: string;
  /** null when a signed-in asker's e-mail was not known yet. */
  email: string | null;
}

/** A tip held on the asker's card (amount in cents). */
export interface Tip {
  amount: number;
  currency: string;
  /** The payment provider's reference (PaymentIntent) that capture and release act on. */
  paymentRef: string;
}

/** The question's public wording, when the owner edited it before publishing (issue 14); the original stays private. */
export interface Redaction {
  question: string;
  detail: string;
}

/** What a question is asked with, whatever follows: its id, who it is for, who asks, and its wording. */
export interface Submission {
  questionId: string;
  recipient: Recipient;
  asker: Asker;
  question: string;
  detail: string;
}

/** A curated Q&A as the owner wrote it (the curate form's fields; the replier's name settled). */
export type CuratedQA = Omit<CurateDraft, 'replierName'> & { questionId: string; replierName: string };

export type TipStatus = 'none' | 'awaiting_authorization' | 'held' | 'capturing' | 'captured' | 'released';

export type QuestionEvent =
  | {
      /** Payments started checkout for a tipped question: it waits for the card authorization (private event). */
      type: 'TippedQuestionSubmitted';
      data: Submission & {
        tip: Tip;
        submittedAt: string;
        /** The asker's consent (issue 14): never public. Absent in events recorded before it: false. */
        askerPrivate?: boolean;
      };
    }
  | {
      type: 'QuestionAsked';
      data: Submission & {
        /** The authorized tip, or null for a free question. */
        tip: Tip | null;
        askedAt: string;
        /** Tipped questions only: when the tip is released if still unanswered. */
        answerDeadline: string | null;
        /** The asker's consent (issue 14): never public. Absent in events recorded before it: false. */
        askerPrivate?: boolean;
      };
    }
  | {
      type: 'QuestionCurated';
      data: CuratedQA & { recipient: Recipient; curatedAt: string };
    }
  | {
      type: 'AnswerPosted';
      data: {
        questionId: string;
        recipientUserId: string;
        /** The signed-in asker; null for a guest or a curated Q&A. */
        askerUserId: string | null;
        answer: string;
        tags: string[];
        displayOnProfile: boolean;
        replierName: string;
        answeredAt: string;
        /** The held tip payments captures now; null for a free question or one whose tip was already released. */
        tipToCapture: Tip | null;
        redaction?: Redaction;
      };
    }
  | {
      type: 'AnswerEdited';
      data: {
        questionId: string;
        answer: string;
        tags: string[];
        editedAt: string;
        redaction?: Redaction;
        /** A curated Q&A's new source (issue 18: an operator edits an archive's answer); absent: unchanged. */
        source?: string;
      };
    }
  | {
      type: 'QuestionVisibilityChanged';
      data: { questionId: string; displayOnProfile: boolean; changedAt: string };
    }
  | {
      /** A platform operator hid the answer from every public surface (issue 18); its owner sees the reason. */
      type: 'AnswerHiddenByOperator';
      data: { questionId: string; reason: string; operator: string; reportId: string | null; hiddenAt: string };
    }
  | {
      type: 'QuestionDeletedByReceiver';
      data: { questionId: string; deletedAt: string; tipToRelease: Tip | null };
    }
  | { type: 'QuestionWithdrawn'; data: { questionId: string; withdrawnAt: string; tipToRelease: Tip | null } }
  | {
      type: 'AnswerWindowExpired';
      data: { questionId: string; deadline: string; expiredAt: string; tipToRelease: Tip };
    }
  /** Payments confirmed the capture / the release (private events: they only move the tip status). */
  | { type: 'TipCaptureConfirmed'; data: { questionId: string; paymentRef: string; capturedAt: string } }
  | { type: 'TipReleaseConfirmed'; data: { questionId: string; paymentRef: string; releasedAt: string } }
  /** Its checkout ended unpaid (payments' `CheckoutExpired`): the question that waited for it goes, nothing held. */
  | { type: 'TippedCheckoutExpired'; data: { questionId: string; paymentRef: string; expiredAt: string } };

export type QuestionEventType = QuestionEvent['type'];

/**
 * Where a question is in its life. `awaiting_payment` is invisible to everyone (checkout not finished);
 * `pending` is asked and unanswered (also after the answer window expired: it stays answerable, for free);
 * `answered` includes curated Q&A; `withdrawn` is final; `checkout_expired` is final too — its checkout ended unpaid
 * and the question, never seen by anyone, is gone (no read-model row).
 */
export type Lifecycle = 'awaiting_payment' | 'pending' | 'answered' | 'withdrawn' | 'checkout_expired';

/** Seen by nobody: still at checkout, or gone because its checkout ended unpaid. */
export const isInvisible = (status: Lifecycle | 'none') =>
  status === 'none' || status === 'awaiting_payment' || status === 'checkout_expired';

export interface QuestionFacts {
  status: Lifecycle;
  questionId: string;
  recipient: Recipient;
  /** null for curated Q&A (the owner wrote both sides). */
  asker: Asker | null;
  isCurated: boolean;
  question: string;
  detail: string;
  answer: string | null;
  tags: string[];
  displayOnProfile: boolean;
  /** The asker chose "Private — only I see the answer" (issue 14). */
  askerPrivate: boolean;
  deletedByReceiver: boolean;
  tip: Tip | null;
  tipStatus: TipStatus;
  answerDeadline: string | null;
  answerWindowExpired: boolean;
  /** A curated Q&A's source note (absent on asked questions). */
  source?: string;
  /** Hidden by an operator (issue 18): it stays off every public surface; absent when not hidden. */
  hiddenByOperator?: { reason: string; hiddenAt: string };
}

export type QuestionState = { status: 'none' } | QuestionFacts;

export const initialQuestionState = (): QuestionState => ({ status: 'none' });

export const questionStreamId = (questionId: string) => `question-${questionId}`;

function existing(state: QuestionState): QuestionFacts | null {
  return state.status === 'none' ? null : state;
}

/** A question's first state: what it was asked with, unanswered, shown, nothing held, except what `facts` sets. */
function opened(
  d: Pick<Submission, 'questionId' | 'recipient' | 'question' | 'detail'>,
  facts: Pick<QuestionFacts, 'status'> & Partial<QuestionFacts>,
): QuestionFacts {
  return {
    questionId: d.questionId,
    recipient: d.recipient,
    asker: null,
    isCurated: false,
    question: d.question,
    detail: d.detail,
    answer: null,
    tags: [],
    displayOnProfile: true,
    askerPrivate: false,
    deletedByReceiver: false,
    tip: null,
    tipStatus: 'none',
    answerDeadline: null,
    answerWindowExpired: false,
    ...facts,
  };
}

export function evolveQuestion(state: QuestionState, event: QuestionEvent): QuestionState {
  const s = existing(state);
  switch (event.type) {
    case 'TippedQuestionSubmitted':
      return opened(event.data, {
        status: 'awaiting_payment',
        asker: event.data.asker,
        askerPrivate: event.data.askerPrivate ?? false,
        tip: event.data.tip,
        tipStatus: 'awaiting_authorization',
      });
    case 'QuestionAsked': {
      const d = event.data;
      return opened(d, {
        status: 'pending',
        asker: d.asker,
        askerPrivate: d.askerPrivate ?? false,
        tip: d.tip,
        tipStatus: d.tip ? 'held' : 'none',
        answerDeadline: d.answerDeadline,
      });
    }
    case 'QuestionCurated': {
      const d = event.data;
      return opened(d, {
        status: 'answered',
        isCurated: true,
        answer: d.answer,
        source: d.source,
        tags: d.tags,
        displayOnProfile: d.displayOnProfile,
      });
    }
    case 'AnswerPosted':
      if (!s) return state;
      return {
        ...s,
        status: 'answered',
        answer: event.data.answer,
        tags: event.data.tags,
        displayOnProfile: event.data.displayOnProfile,
        tipStatus: event.data.tipToCapture ? 'capturing' : s.tipStatus,
      };
    case 'AnswerEdited':
      if (!s) return state;
      return {
        ...s,
        answer: event.data.answer,
        tags: event.data.tags,
        ...(event.data.source !== undefined ? { source: event.data.source } : {}),
      };
    case 'QuestionVisibilityChanged':
      if (!s) return state;
      return { ...s, displayOnProfile: event.data.displayOnProfile };
    case 'AnswerHiddenByOperator':
      if (!s) return state;
      return { ...s, displayOnProfile: false, hiddenByOperator: { reason: event.data.reason, hiddenAt: event.data.hiddenAt } };
    case 'QuestionDeletedByReceiver':
      if (!s) return state;
      return { ...s, deletedByReceiver: true, tipStatus: event.data.tipToRelease ? 'released' : s.tipStatus };
    case 'QuestionWithdrawn':
      if (!s) return state;
      return { ...s, status: 'withdrawn', tipStatus: event.data.tipToRelease ? 'released' : s.tipStatus };
    case 'AnswerWindowExpired':
      if (!s) return state;
      return { ...s, answerWindowExpired: true, tipStatus: 'released' };
    case 'TipCaptureConfirmed':
      if (!s) return state;
      return { ...s, tipStatus: 'captured' };
    case 'TipReleaseConfirmed':
      if (!s) return state;
      return { ...s, tipStatus: 'released' };
    case 'TippedCheckoutExpired':
      if (!s) return state;
      return { ...s, status: 'checkout_expired', tipStatus: 'released' };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
