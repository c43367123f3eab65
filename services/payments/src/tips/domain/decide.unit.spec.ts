import { describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, type TipReleaseReason } from '@ques/contracts';
import { AppError } from '@ques/kit/errors';
import { deciderSpec } from '@ques/kit/testing';
import { TIP_MESSAGES, tipDecider, type TipCommand } from './decide.js';
import type { TipEvent, TipStage } from './tip.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const later = new Date('2026-11-22T11:00:00.000Z');
const questionId = '0b9f5c1e-6a59-4c3f-9a57-3c0a7d0f1a11';
const recipientUserId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
const askerUserId = '7a2d2d9f-4b1c-4b0f-8e2f-2d8d9a2b1b02';

const start: TipCommand = {
  type: 'StartCheckout',
  data: {
    questionId,
    recipientUserId,
    askerUserId,
    accountId: 'acct_1',
    paymentRef: 'cs_1',
    amount: 500,
    currency: 'usd',
    now,
    expiresAt: new Date(now.getTime() + 30 * 60_000),
  },
};

const spec = deciderSpec(tipDecider);
/** The events a command decides on top of a history (to build later histories from). */
const decided = (history: TipEvent[], command: TipCommand) => tipDecider.decide(command, spec.given(history).state());

const started = decided([], start)[0]!;
const authorized = decided([started], { type: 'RecordAuthorization', data: { paymentIntentId: 'pi_1', now } })[0]!;
const captureRequested = decided([started, authorized], { type: 'RequestCapture', data: { now: later } })[0]!;
const captured = decided([started, authorized, captureRequested], { type: 'RecordCapture', data: { now: later } })[0]!;
const releaseRequested = (reason: TipReleaseReason, ...before: TipEvent[]) =>
  decided([started, ...before], { type: 'RequestRelease', data: { reason, now: later } })[0]!;
const refunded = decided([started, authorized, releaseRequested('withdrawn', authorized)], {
  type: 'RecordRelease',
  data: { reason: 'cancelled', now: later },
})[0]!;

/** Every reachable state, by its stage. */
const STATES: Record<TipStage, TipEvent[]> = {
  started: [started],
  authorized: [started, authorized],
  capturing: [started, authorized, captureRequested],
  captured: [started, authorized, captureRequested, captured],
  releasing: [started, authorized, releaseRequested('withdrawn', authorized)],
  released: [started, authorized, releaseRequested('withdrawn', authorized), refunded],
};
/** The tip at a stage, given its history. */
const at = (stage: TipStage) => spec.given(STATES[stage]);

describe('tip decider', () => {
  it('starts a checkout with the platform fee at 10 %, rounded to the cent', () => {
    expect(started).toEqual({
      type: 'CheckoutStarted',
      data: {
        questionId,
        recipientUserId,
        askerUserId,
        accountId: 'acct_1',
        paymentRef: 'cs_1',
        amount: 500,
        applicationFee: 50,
        currency: 'usd',
        startedAt: now.toISOString(),
        expiresAt: '2026-11-22T10:30:00.000Z',
      },
    });
    const fee = (amount: number) => decided([], { ...start, data: { ...start.data, amount } })[0]!;
    expect((fee(105).data as { applicationFee: number }).applicationFee).toBe(11); // 10.5 → 11
    expect((fee(1234).data as { applicationFee: number }).applicationFee).toBe(123); // 123.4 → 123
    expect((fee(100_000).data as { applicationFee: number }).applicationFee).toBe(10_000);
  });

  it('refuses a second checkout for the same question (409)', () => {
    for (const stage of Object.keys(STATES) as TipStage[]) {
      at(stage).when(start).thenThrows({ status: 409, message: TIP_MESSAGES.exists });
    }
  });

  it('rejects every command but StartCheckout on an unknown tip with 404', () => {
    const commands: TipCommand[] = [
      { type: 'RecordAuthorization', data: { paymentIntentId: 'pi_1', now } },
      { type: 'RequestCapture', data: { now } },
      { type: 'RequestRelease', data: { reason: 'withdrawn', now } },
      { type: 'RecordCapture', data: { now } },
      { type: 'RecordRelease', data: { reason: 'abandoned', now } },
    ];
    for (const command of commands) {
      spec.given([]).when(command).thenThrows({ status: 404, message: PAYMENT_MESSAGES.paymentNotFound });
    }
  });

  it('authorizes a started checkout once; later authorizations are no-ops in every state', () => {
    expect(authorized).toEqual({
      type: 'TipAuthorized',
      data: {
        questionId,
        recipientUserId,
        paymentRef: 'cs_1',
        paymentIntentId: 'pi_1',
        amount: 500,
        currency: 'usd',
        authorizedAt: now.toISOString(),
      },
    });
    for (const stage of ['authorized', 'capturing', 'captured', 'releasing', 'released'] as TipStage[]) {
      at(stage).when({ type: 'RecordAuthorization', data: { paymentIntentId: 'pi_other', now } }).thenNothingHappened();
    }
  });

  it('requests a capture only for an authorized tip; repeats are no-ops; unpaid or released ones are refused', () => {
    expect(captureRequested).toEqual({
      type: 'TipCaptureRequested',
      data: { questionId, requestedAt: later.toISOString() },
    });
    const capture: TipCommand = { type: 'RequestCapture', data: { now } };
    at('capturing').when(capture).thenNothingHappened();
    at('captured').when(capture).thenNothingHappened();
    at('started').when(capture).thenThrows({ status: 409, message: PAYMENT_MESSAGES.notPaidYet });
    at('releasing').when(capture).thenThrows({ status: 409, message: PAYMENT_MESSAGES.released });
    at('released').when(capture).thenThrows({ status: 409, message: PAYMENT_MESSAGES.released });
  });

  it('requests a release of a started or authorized tip with its reason; repeats are no-ops; captures are refused', () => {
    for (const reason of [
      'withdrawn',
      'deleted',
      'expired',
      'account_deleted',
      'cancelled',
      'abandoned',
    ] as TipReleaseReason[]) {
      expect(releaseRequested(reason)).toEqual({
        type: 'TipReleaseRequested',
        data: { questionId, reason, requestedAt: later.toISOString() },
      });
      expect(releaseRequested(reason, authorized).type).toBe('TipReleaseRequested');
    }
    const release: TipCommand = { type: 'RequestRelease', data: { reason: 'expired', now } };
    at('releasing').when(release).thenNothingHappened();
    at('released').when(release).thenNothingHappened();
    at('capturing').when(release).thenThrows({ status: 409, message: PAYMENT_MESSAGES.alreadyCaptured });
    at('captured').when(release).thenThrows({ status: 409, message: PAYMENT_MESSAGES.alreadyCaptured });
  });

  it('records a requested capture with amount, fee and net for the ledger; once', () => {
    expect(captured).toEqual({
      type: 'TipCaptured',
      data: {
        questionId,
        recipientUserId,
        paymentRef: 'cs_1',
        paymentIntentId: 'pi_1',
        amount: 500,
        applicationFee: 50,
        net: 450,
        currency: 'usd',
        capturedAt: later.toISOString(),
      },
    });
    at('captured').when({ type: 'RecordCapture', data: { now } }).thenNothingHappened();
    for (const stage of ['started', 'authorized', 'releasing', 'released'] as TipStage[]) {
      at(stage).when({ type: 'RecordCapture', data: { now } }).thenThrows({ status: 409, message: TIP_MESSAGES.captureNotRequested });
    }
  });

  it('records a release with the requested reason, or the observed one when the provider let go on its own', () => {
    expect(refunded).toEqual({
      type: 'TipRefunded',
      data: {
        questionId,
        recipientUserId,
        paymentRef: 'cs_1',
        paymentIntentId: 'pi_1',
        amount: 500,
        currency: 'usd',
        reason: 'withdrawn',
        refundedAt: later.toISOString(),
      },
    });
    const observed = (stage: TipStage, reason: TipReleaseReason, expected: Record<string, unknown>) =>
      at(stage)
        .when({ type: 'RecordRelease', data: { reason, now } })
        .then((events) => expect(events).toMatchObject([{ type: 'TipRefunded', data: expected }]));
    // Never authorized: the checkout ended unpaid, and its question must go too.
    at('started')
      .when({ type: 'RecordRelease', data: { reason: 'abandoned', now } })
      .then((events) =>
        expect(events).toMatchObject([
          { type: 'TipRefunded', data: { reason: 'abandoned', paymentIntentId: null } },
          { type: 'CheckoutExpired', data: { questionId, paymentRef: 'cs_1', expiredAt: now.toISOString() } },
        ]),
      );
    observed('authorized', 'cancelled', { reason: 'cancelled', paymentIntentId: 'pi_1' });
    observed('capturing', 'cancelled', { reason: 'cancelled' });
    at('released').when({ type: 'RecordRelease', data: { reason: 'cancelled', now } }).thenNothingHappened();
    at('captured')
      .when({ type: 'RecordRelease', data: { reason: 'cancelled', now } })
      .thenThrows({ status: 409, message: PAYMENT_MESSAGES.alreadyCaptured });
  });

  it('records CheckoutExpired only for a tip never authorized, and alone for a checkout that never became a tip', () => {
    at('authorized')
      .when({ type: 'RecordRelease', data: { reason: 'cancelled', now } })
      .then((events) => expect(events.map((e) => e.type)).toEqual(['TipRefunded']));
    const unrecorded = { type: 'RecordUnrecordedCheckoutExpiry', data: { questionId, paymentRef: 'cs_9', now } } as const;
    spec
      .given([])
      .when(unrecorded)
      .then((events) =>
        expect(events).toEqual([
          { type: 'CheckoutExpired', data: { questionId, paymentRef: 'cs_9', expiredAt: now.toISOString() } },
        ]),
      );
    at('started').when(unrecorded).thenNothingHappened();
  });

  it('never lets a tip be both captured and released, whatever order the commands come in', () => {
    const commands: TipCommand[] = [
      { type: 'RecordAuthorization', data: { paymentIntentId: 'pi_1', now } },
      { type: 'RequestCapture', data: { now } },
      { type: 'RequestRelease', data: { reason: 'withdrawn', now } },
      { type: 'RecordCapture', data: { now } },
      { type: 'RecordRelease', data: { reason: 'cancelled', now } },
      { type: 'RequestRelease', data: { reason: 'expired', now } },
      { type: 'RequestCapture', data: { now } },
    ];
    // Every permutation of the commands (5,040), each from a freshly started checkout.
    const permutations = (items: TipCommand[]): TipCommand[][] =>
      items.length <= 1
        ? [items]
        : items.flatMap((item, i) =>
            permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
          );
    for (const order of permutations(commands)) {
      let state = spec.given([started]).state();
      const history: string[] = [];
      for (const command of order) {
        try {
          const events = tipDecider.decide(command, state);
          state = events.reduce(tipDecider.evolve, state);
          history.push(...events.map((e) => e.type));
        } catch (err) {
          expect((err as AppError).status).toBe(409);
        }
      }
      expect(history.includes('TipCaptured') && history.includes('TipRefunded')).toBe(false);
      expect(history.filter((t) => t === 'TipCaptured').length).toBeLessThanOrEqual(1);
      expect(history.filter((t) => t === 'TipRefunded').length).toBeLessThanOrEqual(1);
    }
  });
});
