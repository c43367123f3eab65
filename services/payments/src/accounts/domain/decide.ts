import { conflict, notFound, decider, unreachable } from '@ques/kit/domain';
import {
  accountStatusOf,
  evolvePayoutAccount,
  initialPayoutAccountState,
  type AccountFlags,
  type PayoutAccountEvent,
  type PayoutAccountState,
} from './payout-account.js';

export type PayoutAccountCommand =
  | { type: 'LinkAccount'; data: { userId: string; accountId: string; country: string; now: Date } }
  | { type: 'RecordAccountFlags'; data: { accountId: string; now: Date } & AccountFlags };

export const ACCOUNT_MESSAGES = {
  otherAccountLinked: 'A different payout account is already linked to this profile.',
  noAccount: 'Please set up your Stripe Connect account first.',
  notThisAccount: 'This payout account belongs to someone else.',
} as const;

export function decidePayoutAccount(
  command: PayoutAccountCommand,
  state: PayoutAccountState,
): PayoutAccountEvent[] {
  switch (command.type) {
    case 'LinkAccount': {
      const { userId, accountId, country, now } = command.data;
      if (state.status === 'linked') {
        // Connect is "create or reuse": linking the same account again is a no-op.
        if (state.accountId === accountId) return [];
        throw conflict(ACCOUNT_MESSAGES.otherAccountLinked);
      }
      return [
        { type: 'PayoutAccountLinked', data: { userId, accountId, country, linkedAt: now.toISOString() } },
      ];
    }
    case 'RecordAccountFlags': {
      if (state.status !== 'linked') throw notFound(ACCOUNT_MESSAGES.noAccount);
      const { accountId, chargesEnabled, payoutsEnabled, detailsSubmitted, now } = command.data;
      if (state.accountId !== accountId) throw conflict(ACCOUNT_MESSAGES.notThisAccount);
      // Webhooks repeat and arrive out of order; only a real change is recorded.
      if (
        state.chargesEnabled === chargesEnabled &&
        state.payoutsEnabled === payoutsEnabled &&
        state.detailsSubmitted === detailsSubmitted
      ) {
        return [];
      }
      const flags = { chargesEnabled, payoutsEnabled, detailsSubmitted };
      return [
        {
          type: 'PayoutAccountStatusChanged',
          data: {
            userId: state.userId,
            accountId,
            status: accountStatusOf(flags),
            ...flags,
            changedAt: now.toISOString(),
          },
        },
      ];
    }
    default:
      return unreachable(command);
  }
}

export const payoutAccountDecider = decider(initialPayoutAccountState, evolvePayoutAccount, decidePayoutAccount);
