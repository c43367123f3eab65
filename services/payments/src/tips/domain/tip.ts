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

/** A checkout as it starts: whose question, who pays whom, and how much (cents). */
export type Checkout = Pick<
  TipFacts,
  'questionId' | 'recipientUserId' | 'askerUserId' | 'accountId' | 'paymentRef' | 'amount' | 'currency'
>;

/** The tip as the provider holds it once the card went through (what authorization, capture and refund name). */
export type HeldTip = Pick<
  TipFacts,
  'questionId' | 'recipientUserId' | 'paymentRef' | 'amount' | 'currency'
> & {
  paymentIntentId: string;
};

export type TipEvent =
  | {
      type: 'CheckoutStarted';
      data: Checkout & { applicationFee: number; startedAt: string; expiresAt: string };
    }
  | {
      type: 'TipAuthorized';
      data: HeldTip & { authorizedAt: string };
    }
  /** The question was answered: capture (private; the capture itself follows at the provider). */
  | { type: 'TipCaptureRequested'; data: { questionId: string; requestedAt: string } }
  | {
      type: 'TipCaptured';
      data: HeldTip & { applicationFee: number; net: number; capturedAt: string };
    }
  /** Release decided (private; the cancellation follows at the provider). */
  | {
      type: 'TipReleaseRequested';
      data: { questionId: string; reason: TipReleaseReason; requestedAt: string };
    }
  | {
      type: 'TipRefunded';
      /** `paymentIntentId` is null when the card was never authorized. */
      data: Omit<HeldTip, 'paymentIntentId'> & {
        paymentIntentId: string | null;
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
    const { startedAt: _startedAt, ...checkout } = event.data;
    return { status: 'started', ...checkout, paymentIntentId: null, releaseReason: null };
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
