import { describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES, type PayoutAccountStatus } from '@ques/contracts';
import { deciderSpec } from '@ques/kit/testing';
import { tipOptionsDecider } from './decide.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const userId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
const save = (
  tipOptions: unknown[],
  tippingEnabled: boolean,
  accountStatus: PayoutAccountStatus | null = 'completed',
) => ({ type: 'SaveTipOptions', data: { userId, tipOptions, tippingEnabled, accountStatus, now } }) as const;
const spec = deciderSpec(tipOptionsDecider);

describe('tip options decider', () => {
  it('starts from the spec defaults with tipping off', () => {
    expect(spec.given([]).state()).toEqual({
      saved: false,
      tipOptions: ['$0', '$5', '$25', '$50', 'Custom'],
      tippingEnabled: false,
    });
  });

  it('saves options given as the spec objects or bare values, keeping their order', () => {
    spec
      .given([])
      .when(save([{ id: 1, value: '$0', removable: false }, { value: '$10' }, '$1000', 'Custom'], true))
      .then([
        {
          type: 'TipOptionsSaved',
          data: {
            userId,
            tipOptions: ['$0', '$10', '$1000', 'Custom'],
            tippingEnabled: true,
            savedAt: now.toISOString(),
          },
        },
      ]);
  });

  it('ignores a save that changes nothing, but records the first save of the defaults', () => {
    const defaults = ['$0', '$5', '$25', '$50', 'Custom'];
    const first = spec
      .given([])
      .when(save(defaults, false, null))
      .then((events) => expect(events).toHaveLength(1));
    spec.given(first).when(save(defaults, false, null)).thenNothingHappened();
    spec
      .given(first)
      .when(save(defaults, true))
      .then((events) => expect(events).toHaveLength(1));
  });

  it('issue 28: the switch alone keeps the saved options, and is refused without a completed account', () => {
    const first = spec.given([]).when(save(['$0', '$10'], false, null)).then((events) => expect(events).toHaveLength(1));
    const only = (tippingEnabled: boolean, accountStatus: PayoutAccountStatus | null) =>
      ({ type: 'SaveTipOptions', data: { userId, tippingEnabled, accountStatus, now } }) as const;
    spec.given(first).when(only(true, 'pending')).thenThrows({ status: 422, message: PAYMENT_MESSAGES.completeFirst });
    spec
      .given(first)
      .when(only(true, 'completed'))
      .then([{ type: 'TipOptionsSaved', data: { userId, tipOptions: ['$0', '$10'], tippingEnabled: true, savedAt: now.toISOString() } }]);
  });

  it('enforces spec §5: at most 5, allowed values only, no duplicates, $0 always there', () => {
    const cases: [unknown[], string][] = [
      [['$0', '$1', '$5', '$10', '$25', '$50'], PAYMENT_MESSAGES.tooManyOptions],
      [['$0', '$7'], PAYMENT_MESSAGES.invalidOption],
      [['$0', 5], PAYMENT_MESSAGES.invalidOption],
      [['$0', { value: null }], PAYMENT_MESSAGES.invalidOption],
      [['$0', '$5', '$5'], PAYMENT_MESSAGES.duplicateOption],
      [['$5', 'Custom'], PAYMENT_MESSAGES.zeroRequired],
      [[], PAYMENT_MESSAGES.zeroRequired],
    ];
    for (const [options, message] of cases) {
      spec.given([]).when(save(options, false)).thenThrows({ status: 400, message });
    }
  });

  it('enables tipping only with a completed payout account (spec §4, §8 messages)', () => {
    spec.given([]).when(save(['$0', '$5'], true, null)).thenThrows({ status: 422, message: PAYMENT_MESSAGES.setUpFirst });
    spec.given([]).when(save(['$0', '$5'], true, 'pending')).thenThrows({ status: 422, message: PAYMENT_MESSAGES.completeFirst });
    spec.given([]).when(save(['$0', '$5'], true, 'restricted')).thenThrows({ status: 422, message: PAYMENT_MESSAGES.completeFirst });
    spec.given([]).when(save(['$0', '$5'], true, 'completed')).then((events) => expect(events).toHaveLength(1));
    // Turning it off, or saving options with it off, needs no account.
    spec.given([]).when(save(['$0', '$5'], false, null)).then((events) => expect(events).toHaveLength(1));
  });
});
