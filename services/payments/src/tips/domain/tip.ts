/**
 * The tip aggregate: one per tipped question (stream `tip-<questionId>`), from checkout to captured or released.
 * Events, state and evolve. Pure — no I/O (lint-enforced).
 *
 *   started ──TipAuthorized──► authorized ──TipCaptureRequested──► capturing ──TipCaptured──► captured
 *      │                          │                                   │
 *      └──────TipReleaseRequested─┴──► releasing ──TipRefunded──► released ◄──TipRefunded (provider cancelled)
 *
 * A tip released before the card was ever authorized also records `CheckoutExpired` (with its `TipRefunded`): the
 * checkout ended unpaid, so the question that waited for it goes. A checkout the provider reports expired before its
 * tip was ever recorded (its start failed) records `CheckoutExpired` alone, on a stream that stays without a tip.
 *
 * Capture and release are decided first (`…Requested`, one append wins under optimistic concurrency) and carried out
 * at the provider afterwards, so a tip can never be both captured and released, whatever races.
 */
import type { TipReleaseReason } from '@ques/contracts';

export interface TipFacts {
  questionId: string;
  recipientUserId: string;
  /** The signed-in asker; null for a guest. */
  askerUserId: string | null;
  /** The owner's connected account (the charge's destination). */
  accountId: string;
  /** The provider's checkout reference (Checkout Session id): what questions knows the tip by. */
  paymentRef: string;
  /** Known once the card is authorized. */
  paymentIntentId: string | null;
  /** Cents. */
  amount: number;
  applicationFee: number;
  currency: string;
  expiresAt: string;
  releaseReason: TipReleaseReason | null;
}

export type TipEvent =
  | {
      type: 'CheckoutStarted';
      data: {
        questionId: string;
        recipientUserId: string;
        askerUserId: string | null;
        accountId: string;
        paymentRef: string;
        amount: number;
        applicationFee: number;
        currency: string;
        startedAt: string;
        expiresAt: string;
      };
    }
  | {
      type: 'TipAuthorized';
      data: {
        questionId: string;
        recipientUserId: string;
        paymentRef: string;
        paymentIntentId: string;
        amount: number;
        currency: string;
        authorizedAt: string;
      };
    }
  /** The question was answered: capture (private; the capture itself follows at the provider). */
  | { type: 'TipCaptureRequested'; data: { questionId: string; requestedAt: string } }
  | {
      type: 'TipCaptured';
      data: {
        questionId: string;
        recipientUserId: string;
        paymentRef: string;
        paymentIntentId: string;
        amount: number;
        applicationFee: number;
        net: number;
        currency: string;
        capturedAt: string;
      };
    }
  /** Release decided (private; the cancellation follows at the provider). */
  | {
      type: 'TipReleaseRequested';
      data: { questionId: string; reason: TipReleaseReason; requestedAt: string };
    }
  | {
      type: 'TipRefunded';
      data: {
        questionId: string;
        recipientUserId: string;
        paymentRef: string;
        paymentIntentId: string | null;
        amount: number;
        currency: string;
        reason: TipReleaseReason;
        refundedAt: string;
      };
    }
  | CheckoutExpiredEvent;

/** The checkout ended unpaid: its question, which waited invisibly for the card, goes (questions consumes it). */
export type CheckoutExpiredEvent = {
  type: 'CheckoutExpired';
  data: { questionId: string; paymentRef: string; expiredAt: string };
};

export type TipEventType = TipEvent['type'];

export type TipStage = 'started' | 'authorized' | 'capturing' | 'captured' | 'releasing' | 'released';

export type TipState = { status: 'none' } | ({ status: TipStage } & TipFacts);

export const initialTipState = (): TipState => ({ status: 'none' });

export const tipStreamId = (questionId: string) => `tip-${questionId}`;

export function evolveTip(state: TipState, event: TipEvent): TipState {
  if (event.type === 'CheckoutStarted') {
    const d = event.data;
    return {
      status: 'started',
      questionId: d.questionId,
      recipientUserId: d.recipientUserId,
      askerUserId: d.askerUserId,
      accountId: d.accountId,
      paymentRef: d.paymentRef,
      paymentIntentId: null,
      amount: d.amount,
      applicationFee: d.applicationFee,
      currency: d.currency,
      expiresAt: d.expiresAt,
      releaseReason: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'TipAuthorized':
      return { ...state, status: 'authorized', paymentIntentId: event.data.paymentIntentId };
    case 'TipCaptureRequested':
      return { ...state, status: 'capturing' };
    case 'TipCaptured':
      return { ...state, status: 'captured' };
    case 'TipReleaseRequested':
      return { ...state, status: 'releasing', releaseReason: event.data.reason };
    case 'TipRefunded':
      return { ...state, status: 'released', releaseReason: event.data.reason };
    case 'CheckoutExpired':
      return state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** The owner's share: the amount minus the platform's fee. */
export const netOf = (tip: Pick<TipFacts, 'amount' | 'applicationFee'>) => tip.amount - tip.applicationFee;
