import { applicationFeeCents, PAYMENT_MESSAGES, type TipReleaseReason } from '@ques/contracts';
import { conflict, notFound, decider, unreachable } from '@ques/kit/domain';
import {
  evolveTip,
  initialTipState,
  netOf,
  type Checkout,
  type HeldTip,
  type TipEvent,
  type TipFacts,
  type TipStage,
  type TipState,
} from './tip.js';

export type TipCommand =
  | {
      type: 'StartCheckout';
      data: Checkout & { now: Date; expiresAt: Date };
    }
  /** The provider says the card is authorized (held) for this checkout. */
  | { type: 'RecordAuthorization'; data: { paymentIntentId: string; now: Date } }
  /** The question was answered (questions' `AnswerPosted`). */
  | { type: 'RequestCapture'; data: { now: Date } }
  | { type: 'RequestRelease'; data: { reason: TipReleaseReason; now: Date } }
  /** The provider captured the payment. */
  | { type: 'RecordCapture'; data: { now: Date } }
  /**
   * The provider holds nothing any more: the PaymentIntent was cancelled or the checkout expired unpaid. After a
   * release request the requested reason stands; otherwise (the provider acted on its own) `reason` applies.
   */
  | { type: 'RecordRelease'; data: { reason: TipReleaseReason; now: Date } }
  /**
   * The provider says a checkout of ours expired, but no tip was ever recorded for it (the checkout's start failed
   * after the provider created it): nothing is held; the question handed over for it, if any, must go.
   */
  | { type: 'RecordUnrecordedCheckoutExpiry'; data: { questionId: string; paymentRef: string; now: Date } };

export const TIP_MESSAGES = {
  exists: 'A checkout already exists for this question.',
  captureNotRequested: 'This tip has no capture in progress.',
} as const;

type Existing = { status: TipStage } & TipFacts;

/** Where a tip is headed: still open (started, authorized), to capture, or to release — for capture/release requests. */
const COURSE: Record<TipStage, 'open' | 'capture' | 'release'> = {
  started: 'open',
  authorized: 'open',
  capturing: 'capture',
  captured: 'capture',
  releasing: 'release',
  released: 'release',
};

function existing(state: TipState): Existing {
  if (state.status === 'none') throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  return state;
}

/** Released: `TipRefunded`, and `CheckoutExpired` when the card was never authorized (the checkout ended unpaid). */
function released(s: Existing, reason: TipReleaseReason, now: Date): TipEvent[] {
  const events = [refunded(s, reason, now)];
  if (!s.paymentIntentId)
    events.push({
      type: 'CheckoutExpired',
      data: { questionId: s.questionId, paymentRef: s.paymentRef, expiredAt: now.toISOString() },
    });
  return events;
}

/** The tip as its authorization, capture and refund events name it (all but the PaymentIntent). */
const tipOf = (s: Existing): Omit<HeldTip, 'paymentIntentId'> => ({
  questionId: s.questionId,
  recipientUserId: s.recipientUserId,
  paymentRef: s.paymentRef,
  amount: s.amount,
  currency: s.currency,
});

const refunded = (s: Existing, reason: TipReleaseReason, now: Date): TipEvent => ({
  type: 'TipRefunded',
  data: {
    ...tipOf(s),
    paymentIntentId: s.paymentIntentId,
    reason,
    refundedAt: now.toISOString(),
  },
});

export function decideTip(command: TipCommand, state: TipState): TipEvent[] {
  switch (command.type) {
    case 'StartCheckout': {
      if (state.status !== 'none') throw conflict(TIP_MESSAGES.exists);
      const d = command.data;
      return [
        {
          type: 'CheckoutStarted',
          data: {
            questionId: d.questionId,
            recipientUserId: d.recipientUserId,
            askerUserId: d.askerUserId,
            accountId: d.accountId,
            paymentRef: d.paymentRef,
            amount: d.amount,
            applicationFee: applicationFeeCents(d.amount),
            currency: d.currency,
            startedAt: d.now.toISOString(),
            expiresAt: d.expiresAt.toISOString(),
          },
        },
      ];
    }
    case 'RecordAuthorization': {
      const s = existing(state);
      // Repeated or late (already moving on, or released before the card went through: the release cancels it).
      if (s.status !== 'started') return [];
      return [
        {
          type: 'TipAuthorized',
          data: {
            ...tipOf(s),
            paymentIntentId: command.data.paymentIntentId,
            authorizedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'RequestCapture': {
      const s = existing(state);
      if (s.status === 'started') throw conflict(PAYMENT_MESSAGES.notPaidYet);
      if (COURSE[s.status] === 'release') throw conflict(PAYMENT_MESSAGES.released);
      if (COURSE[s.status] === 'capture') return [];
      return [
        {
          type: 'TipCaptureRequested',
          data: { questionId: s.questionId, requestedAt: command.data.now.toISOString() },
        },
      ];
    }
    case 'RequestRelease': {
      const s = existing(state);
      if (COURSE[s.status] === 'capture') throw conflict(PAYMENT_MESSAGES.alreadyCaptured);
      if (COURSE[s.status] === 'release') return [];
      const { reason, now } = command.data;
      return [
        {
          type: 'TipReleaseRequested',
          data: { questionId: s.questionId, reason, requestedAt: now.toISOString() },
        },
      ];
    }
    case 'RecordCapture': {
      const s = existing(state);
      if (s.status === 'captured') return [];
      if (s.status !== 'capturing' || !s.paymentIntentId) throw conflict(TIP_MESSAGES.captureNotRequested);
      return [
        {
          type: 'TipCaptured',
          data: {
            ...tipOf(s),
            paymentIntentId: s.paymentIntentId,
            applicationFee: s.applicationFee,
            net: netOf(s),
            capturedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'RecordRelease': {
      const s = existing(state);
      switch (s.status) {
        case 'released':
          return [];
        case 'captured':
          throw conflict(PAYMENT_MESSAGES.alreadyCaptured);
        case 'releasing':
          return released(s, s.releaseReason ?? command.data.reason, command.data.now);
        case 'started':
        case 'authorized':
        case 'capturing':
          // The provider let go on its own (checkout expired unpaid, authorization cancelled or lapsed).
          return released(s, command.data.reason, command.data.now);
        default: {
          const unknown: never = s.status;
          return unknown;
        }
      }
    }
    case 'RecordUnrecordedCheckoutExpiry': {
      // A recorded tip goes the usual way (RecordRelease); this is only for a checkout that never became one.
      if (state.status !== 'none') return [];
      const { questionId, paymentRef, now } = command.data;
      return [{ type: 'CheckoutExpired', data: { questionId, paymentRef, expiredAt: now.toISOString() } }];
    }
    default:
      return unreachable(command);
  }
}

export const tipDecider = decider(initialTipState, evolveTip, decideTip);
