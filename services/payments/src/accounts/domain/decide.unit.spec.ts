import { describe, expect, it } from 'vitest';
import { AppError } from '@ques/kit/errors';
import {
  ACCOUNT_MESSAGES,
  decidePayoutAccount,
  payoutAccountDecider,
  type PayoutAccountCommand,
} from './decide.js';
import { accountStatusOf, type PayoutAccountEvent, type PayoutAccountState } from './payout-account.js';

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

const given = (...events: PayoutAccountEvent[]): PayoutAccountState =>
  events.reduce(payoutAccountDecider.evolve, payoutAccountDecider.initialState());
function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected the command to be rejected');
}
const linked = decidePayoutAccount(link, given())[0]!;

describe('payout account decider', () => {
  it('links an account once; linking the same one again is a no-op, another one is refused', () => {
    expect(linked).toEqual({
      type: 'PayoutAccountLinked',
      data: { userId, accountId: 'acct_1', country: 'CA', linkedAt: now.toISOString() },
    });
    expect(given(linked)).toMatchObject({
      status: 'linked',
      accountStatus: 'pending',
      chargesEnabled: false,
    });
    expect(decidePayoutAccount(link, given(linked))).toEqual([]);
    const error = errorOf(() =>
      decidePayoutAccount({ ...link, data: { ...link.data, accountId: 'acct_2' } }, given(linked)),
    );
    expect(error).toMatchObject({ status: 409, message: ACCOUNT_MESSAGES.otherAccountLinked });
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
    const completed = decidePayoutAccount(flags(true, true, true), given(linked))[0]!;
    expect(completed).toEqual({
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
    });
    expect(given(linked, completed)).toMatchObject({ accountStatus: 'completed' });
    expect(decidePayoutAccount(flags(true, true, true), given(linked, completed))).toEqual([]);
    // The provider restricting the account later is recorded too.
    expect(decidePayoutAccount(flags(true, false, true), given(linked, completed))[0]).toMatchObject({
      data: { status: 'restricted' },
    });
    // No flags changed from the initial state: nothing to record.
    expect(decidePayoutAccount(flags(false, false, false), given(linked))).toEqual([]);
  });

  it('refuses flags without an account (404) or for another account (409)', () => {
    expect(errorOf(() => decidePayoutAccount(flags(true, true, true), given()))).toMatchObject({
      status: 404,
      message: ACCOUNT_MESSAGES.noAccount,
    });
    const other = {
      type: 'RecordAccountFlags',
      data: { accountId: 'acct_2', chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true, now },
    } as const;
    expect(errorOf(() => decidePayoutAccount(other, given(linked)))).toMatchObject({
      status: 409,
      message: ACCOUNT_MESSAGES.notThisAccount,
    });
  });
});
