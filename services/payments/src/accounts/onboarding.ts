import { isUuid, onboardingInternalCalls } from '@ques/contracts';
import { metadataFrom, routeFor, type HttpApp } from '@ques/kit';
import type { TipOptionsReadModel } from '../tip-options/read-models/tip-options.js';
import type { AccountSync } from './account-sync.js';
import type { PayoutAccountsReadModel } from './read-models/payout-accounts.js';

export interface OnboardingFactsDeps {
  accounts: PayoutAccountsReadModel;
  tipOptions: TipOptionsReadModel;
  sync: AccountSync;
}

/**
 * Payments' facts for the owner's set-up checklist (issue 28, docs/adr/0056), read by identity: the payout account is
 * complete, and tipping is on *and* can be paid. An account not yet complete is re-read from the provider first, as
 * the payment page does, so an owner back from onboarding sees the step done wherever they look.
 */
export function registerOnboardingFactsRoute(app: HttpApp, deps: OnboardingFactsDeps): void {
  routeFor(app, onboardingInternalCalls.payments, async (request) => {
    const { userId } = request.params;
    if (!isUuid(userId)) return { payoutsConnected: false, tippingEnabled: false };
    let account = await deps.accounts.byUser(userId);
    if (account && account.status !== 'completed') {
      account = (await deps.sync.syncByAccountId(account.account_id, metadataFrom(request, userId)).catch((err: unknown) => {
        request.log.warn({ err, userId }, 'payout account status could not be refreshed for the checklist');
        return undefined;
      })) ?? account;
    }
    const payoutsConnected = account?.status === 'completed';
    const saved = await deps.tipOptions.byUser(userId);
    return { payoutsConnected, tippingEnabled: payoutsConnected && saved?.tipping_enabled === true };
  });
}
