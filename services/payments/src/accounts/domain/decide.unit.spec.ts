import { describe, expect, it } from 'vitest';
import { deciderSpec } from '@ques/kit/testing';
import { ACCOUNT_MESSAGES, payoutAccountDecider, type PayoutAccountCommand } from './decide.js';
import { accountStatusOf, type PayoutAccountEvent } from './payout-account.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const userId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
const link: PayoutAccountCommand = {
  type: 'LinkAccount',
  data: { userId, accountId: 'acct_1', country: 'CA', now },
};
const flags = (
  chargesEnabled: boolean,
  payoutsEnabled: boolean,
  detailsSubmitted: boolean,
): PayoutAccountCommand => ({
  type: 'RecordAccountFlags',
  data: { accountId: 'acct_1', chargesEnabled, payoutsEnabled, detailsSubmitted, now },
});

const spec = deciderSpec(payoutAccountDecider);
const linked: PayoutAccountEvent = {
  type: 'PayoutAccountLinked',
  data: { userId, accountId: 'acct_1', country: 'CA', linkedAt: now.toISOString() },
};
const completed: PayoutAccountEvent = {
  type: 'PayoutAccountStatusChanged',
  data: {
    userId,
    accountId: 'acct_1',
    status: 'completed',
    chargesEnabled: true,
    payoutsEnabled: true,
    detailsSubmitted: true,
    changedAt: now.toISOString(),
  },
};

describe('payout account decider', () => {
  it('links an account once; linking the same one again is a no-op, another one is refused', () => {
    spec.given([]).when(link).then([linked]);
    expect(spec.given([linked]).state()).toMatchObject({
      status: 'linked',
      accountStatus: 'pending',
      chargesEnabled: false,
    });
    spec.given([linked]).when(link).thenNothingHappened();
    spec
      .given([linked])
      .when({ ...link, data: { ...link.data, accountId: 'acct_2' } })
      .thenThrows({ status: 409, message: ACCOUNT_MESSAGES.otherAccountLinked });
  });

  it('derives the status from the provider flags: completed only with charges, payouts and details', () => {
    expect(accountStatusOf({ chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true })).toBe(
      'completed',
    );
    expect(accountStatusOf({ chargesEnabled: true, payoutsEnabled: false, detailsSubmitted: true })).toBe(
      'restricted',
    );
    expect(accountStatusOf({ chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: true })).toBe(
      'restricted',
    );
    expect(accountStatusOf({ chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: false })).toBe(
      'pending',
    );
    expect(accountStatusOf({ chargesEnabled: false, payoutsEnabled: false, detailsSubmitted: false })).toBe(
      'pending',
    );
  });

  it('records a change of flags with the derived status, and ignores a repeat', () => {
    spec
      .given([linked])
      .when(flags(true, true, true))
      .then((events, state) => {
        expect(events).toEqual([completed]);
        expect(state).toMatchObject({ accountStatus: 'completed' });
      });
    spec.given([linked, completed]).when(flags(true, true, true)).thenNothingHappened();
    // The provider restricting the account later is recorded too.
    spec
      .given([linked, completed])
      .when(flags(true, false, true))
      .then((events) => expect(events[0]).toMatchObject({ data: { status: 'restricted' } }));
    // No flags changed from the initial state: nothing to record.
    spec.given([linked]).when(flags(false, false, false)).thenNothingHappened();
  });

  it('refuses flags without an account (404) or for another account (409)', () => {
    spec.given([]).when(flags(true, true, true)).thenThrows({ status: 404, message: ACCOUNT_MESSAGES.noAccount });
    const other = {
      type: 'RecordAccountFlags',
      data: { accountId: 'acct_2', chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, now },
    } as const;
    spec.given([linked]).when(other).thenThrows({ status: 409, message: ACCOUNT_MESSAGES.notThisAccount });
  });
});
