/** The payout account aggregate (one per owner): events, state and evolve. Pure — no I/O (lint-enforced). */
import type { PayoutAccountStatus } from '@ques/contracts';

/** What the provider says about a connected account. */
export interface AccountFlags {
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
}

export type PayoutAccountEvent =
  | {
      type: 'PayoutAccountLinked';
      data: { userId: string; accountId: string; country: string; linkedAt: string };
    }
  | {
      type: 'PayoutAccountStatusChanged';
      data: {
        userId: string;
        accountId: string;
        status: PayoutAccountStatus;
        changedAt: string;
      } & AccountFlags;
    };

export type PayoutAccountState =
  | { status: 'none' }
  | ({
      status: 'linked';
      userId: string;
      accountId: string;
      country: string;
      accountStatus: PayoutAccountStatus;
    } & AccountFlags);

export const initialPayoutAccountState = (): PayoutAccountState => ({ status: 'none' });

export const payoutAccountStreamId = (userId: string) => `payout-account-${userId}`;

/**
 * Completed means the owner can be paid: the provider accepts charges for them, can pay them out, and has all their
 * details. Details in but capabilities off is `restricted` (the provider wants more); anything else is `pending`.
 */
export function accountStatusOf(flags: AccountFlags): PayoutAccountStatus {
  if (flags.chargesEnabled && flags.payoutsEnabled && flags.detailsSubmitted) return 'completed';
  if (flags.detailsSubmitted) return 'restricted';
  return 'pending';
}

export function evolvePayoutAccount(
  state: PayoutAccountState,
  event: PayoutAccountEvent,
): PayoutAccountState {
  switch (event.type) {
    case 'PayoutAccountLinked':
      return {
        status: 'linked',
        userId: event.data.userId,
        accountId: event.data.accountId,
        country: event.data.country,
        accountStatus: 'pending',
        chargesEnabled: false,
        payoutsEnabled: false,
        detailsSubmitted: false,
      };
    case 'PayoutAccountStatusChanged': {
      if (state.status !== 'linked') return state;
      const { status, chargesEnabled, payoutsEnabled, detailsSubmitted } = event.data;
      return { ...state, accountStatus: status, chargesEnabled, payoutsEnabled, detailsSubmitted };
    }
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
