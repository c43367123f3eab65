import { describe, expect, it } from 'vitest';
import { ASK_MESSAGES } from './questions.js';
import {
  applicationFeeCents,
  checkDonationAmount,
  checkTipOptions,
  DEFAULT_TIP_OPTIONS,
  PAYMENT_MESSAGES,
  PaymentsEvents,
  ZConnectRequest,
} from './payments.js';
import { PaymentsEventsForQuestions } from './questions.js';

const messageOf = (r: { ok: boolean; message?: string }) => (r.ok ? null : r.message);

describe('payments contracts', () => {
  it('has the spec defaults: $0 (not removable), $5, $25, $50, Custom', () => {
    expect(DEFAULT_TIP_OPTIONS).toEqual([
      { id: 'tip-0', value: '$0', removable: false },
      { id: 'tip-5', value: '$5', removable: true },
      { id: 'tip-25', value: '$25', removable: true },
      { id: 'tip-50', value: '$50', removable: true },
      { id: 'tip-custom', value: 'Custom', removable: true },
    ]);
  });

  it('checks tip options: ≤ 5, allowed values, unique, $0 present', () => {
    expect(checkTipOptions([{ value: '$0' }, '$1000'])).toEqual({
      ok: true,
      value: [
        { id: 'tip-0', value: '$0', removable: false },
        { id: 'tip-1000', value: '$1000', removable: true },
      ],
    });
    expect(messageOf(checkTipOptions(['$0', '$3']))).toBe(PAYMENT_MESSAGES.invalidOption);
    expect(messageOf(checkTipOptions(['$0', '$1', '$5', '$10', '$25', 'Custom']))).toBe(
      PAYMENT_MESSAGES.tooManyOptions,
    );
    expect(messageOf(checkTipOptions(['$0', '$0']))).toBe(PAYMENT_MESSAGES.duplicateOption);
    expect(messageOf(checkTipOptions(['Custom']))).toBe(PAYMENT_MESSAGES.zeroRequired);
  });

  it('checks a checkout amount in whole dollars against the offered options (spec §5 rules 6–7)', () => {
    const offered = ['$0', '$5', '$25'] as const;
    expect(checkDonationAmount(5, offered)).toEqual({ ok: true, value: 500 });
    expect(checkDonationAmount('25', offered)).toEqual({ ok: true, value: 2500 });
    expect(messageOf(checkDonationAmount(undefined, offered))).toBe(ASK_MESSAGES.selectTip);
    expect(messageOf(checkDonationAmount(0, offered))).toBe(ASK_MESSAGES.selectTip);
    expect(messageOf(checkDonationAmount('abc', offered))).toBe(ASK_MESSAGES.selectTip);
    expect(messageOf(checkDonationAmount(0.5, offered))).toBe(ASK_MESSAGES.penny);
    expect(messageOf(checkDonationAmount(5.5, offered))).toBe(PAYMENT_MESSAGES.wholeDollars);
    expect(messageOf(checkDonationAmount(7, offered))).toBe(PAYMENT_MESSAGES.notAnOption);
    expect(checkDonationAmount(7, [...offered, 'Custom'])).toEqual({ ok: true, value: 700 });
    expect(messageOf(checkDonationAmount(10_001, ['Custom']))).toBe(ASK_MESSAGES.tipTooLarge);
  });

  it('takes 10 % rounded to the cent', () => {
    expect(applicationFeeCents(500)).toBe(50);
    expect(applicationFeeCents(105)).toBe(11);
    expect(applicationFeeCents(1234)).toBe(123);
  });

  it('requires the payout country (issue 28: never assumed) and upper-cases it', () => {
    const missing = ZConnectRequest.safeParse({});
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.message).toBe('Please choose the country of your payout account. It cannot be changed later.');
    expect(ZConnectRequest.parse({ country: 'us' }).country).toBe('US');
    expect(ZConnectRequest.safeParse({ country: 'USA' }).success).toBe(false);
  });

  it('publishes tip events that questions can read with its own schemas', () => {
    const at = '2026-11-22T10:00:00.000Z';
    const questionId = '0b9f5c1e-6a59-4c3f-9a57-3c0a7d0f1a11';
    const recipientUserId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
    const captured = PaymentsEvents.TipCaptured.schema.parse({
      questionId,
      paymentRef: 'cs_1',
      capturedAt: at,
      recipientUserId,
      amount: 500,
      applicationFee: 50,
      net: 450,
      currency: 'usd',
    });
    expect(PaymentsEventsForQuestions.TipCaptured.schema.parse(captured)).toEqual({
      questionId,
      paymentRef: 'cs_1',
      capturedAt: at,
    });
    const refunded = PaymentsEvents.TipRefunded.schema.parse({
      questionId,
      paymentRef: 'cs_1',
      refundedAt: at,
      recipientUserId,
      amount: 500,
      currency: 'usd',
      reason: 'expired',
    });
    expect(PaymentsEventsForQuestions.TipRefunded.schema.safeParse(refunded).success).toBe(true);
    expect(PaymentsEvents.TipRefunded.schema.safeParse({ ...refunded, reason: 'because' }).success).toBe(
      false,
    );
  });
});
