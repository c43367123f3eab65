import { describe, expect, it } from 'vitest';
import {
  addTipOption,
  canAdd,
  changeTipOption,
  defaultTipOptions,
  fromServer,
  removeTipOption,
  tippingBlockedBy,
} from './tip-options';
import { PAYMENT_MESSAGES as TIPPING_MESSAGES } from '@ques/contracts/core';

const values = (o: readonly { value: string }[]) => o.map((x) => x.value);

describe('tip option rules (spec §3, §5, §9)', () => {
  it('defaults to $0, $5, $25, $50, Custom with $0 not removable', () => {
    const options = defaultTipOptions();
    expect(values(options)).toEqual(['$0', '$5', '$25', '$50', 'Custom']);
    expect(options.map((o) => o.removable)).toEqual([false, true, true, true, true]);
  });

  it('allows at most 5 options: Add does nothing at 5', () => {
    const five = defaultTipOptions();
    expect(canAdd(five)).toBe(false);
    expect(addTipOption(five)).toBe(five);
    const four = removeTipOption(five, five[4]!.id);
    expect(canAdd(four)).toBe(true);
    expect(values(addTipOption(four))).toEqual(['$0', '$5', '$25', '$50', '$1']);
  });

  it('never removes $0', () => {
    const options = defaultTipOptions();
    expect(removeTipOption(options, options[0]!.id)).toBe(options);
  });

  it('changes a value only to an allowed one not offered already, and never the $0 option', () => {
    const options = defaultTipOptions();
    expect(values(changeTipOption(options, options[1]!.id, '$1000'))).toEqual(['$0', '$1000', '$25', '$50', 'Custom']);
    expect(changeTipOption(options, options[1]!.id, '$25')).toBe(options);
    expect(changeTipOption(options, options[0]!.id, '$10')).toBe(options);
  });

  it('cleans what the server sent: allowed values, no duplicates, $0 first, at most 5', () => {
    const loaded = fromServer([
      { id: 'a', value: '$5', removable: true },
      { id: 'b', value: '$7', removable: true },
      { id: 'c', value: '$5', removable: true },
      { id: 'd', value: '$0', removable: true },
      { id: 'e', value: '$10', removable: true },
      { id: 'f', value: '$25', removable: true },
      { id: 'g', value: '$50', removable: true },
      { id: 'h', value: '$100', removable: true },
    ]);
    expect(values(loaded)).toEqual(['$0', '$5', '$10', '$25', '$50']);
    expect(loaded[0]?.removable).toBe(false);
  });

  it('lets tipping on only with a completed payout account', () => {
    expect(tippingBlockedBy(null)).toBe(TIPPING_MESSAGES.setUpFirst);
    expect(tippingBlockedBy({ stripeAccountId: null, stripeAccountStatus: null })).toBe(TIPPING_MESSAGES.setUpFirst);
    expect(tippingBlockedBy({ stripeAccountId: 'acct_1', stripeAccountStatus: 'pending' })).toBe(TIPPING_MESSAGES.completeFirst);
    expect(tippingBlockedBy({ stripeAccountId: 'acct_1', stripeAccountStatus: 'completed' })).toBeNull();
  });
});
