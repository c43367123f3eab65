import { PAYMENT_MESSAGES, paymentsApi, type AccountStatusResponse } from '@ques/contracts';
import { AppError, metadataFrom, requireUser, routeFor, type HttpApp, type ServiceContext } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import { assertOwnUserId, userIdParam } from '../http.js';
import { idempotencyKeys, type PaymentProvider } from '../providers/provider.js';
import type { AccountSync } from './account-sync.js';
import type { PayoutAccountCommands } from './commands.js';
import type { PayoutAccountRow, PayoutAccountsReadModel } from './read-models/payout-accounts.js';

export interface AccountRoutesDeps {
  ctx: ServiceContext<PaymentsDB>;
  commands: PayoutAccountCommands;
  provider: PaymentProvider;
  accounts: PayoutAccountsReadModel;
  sync: AccountSync;
  /** The web app's origin: where the provider's onboarding sends the owner back to. */
  publicOrigin: string;
}

const statusOf = (userId: string, row: PayoutAccountRow | undefined): AccountStatusResponse => ({
  userId,
  stripeAccountId: row?.account_id ?? null,
  stripeAccountStatus: row?.status ?? null,
  country: row?.country ?? null,
  chargesEnabled: row?.charges_enabled ?? false,
  payoutsEnabled: row?.payouts_enabled ?? false,
  detailsSubmitted: row?.details_submitted ?? false,
});

export async function registerAccountRoutes(app: HttpApp, deps: AccountRoutesDeps): Promise<void> {
  const { ctx, commands, provider, accounts, sync, publicOrigin } = deps;

  // Creates the owner's connected account once (a deterministic idempotency key makes racing calls get the same
  // one), then hands out a fresh onboarding link each time.
  routeFor(app, paymentsApi.connect, async (request) => {
    const claims = await requireUser(request);
    const { body } = request;
    assertOwnUserId(body.userId, claims);
    const metadata = metadataFrom(request, claims.sub);
    try {
      let accountId = (await accounts.byUser(claims.sub))?.account_id;
      if (!accountId) {
        const created = await provider.createConnectedAccount({
          userId: claims.sub,
          country: body.country,
          idempotencyKey: idempotencyKeys.account(claims.sub),
        });
        const { state } = await commands.handle(
          claims.sub,
          {
            type: 'LinkAccount',
            data: {
              userId: claims.sub,
              accountId: created.accountId,
              country: body.country,
              now: ctx.clock(),
            },
          },
          metadata,
        );
        accountId = state.status === 'linked' ? state.accountId : created.accountId;
      }
      const link = await provider.createOnboardingLink({
        accountId,
        returnUrl: `${publicOrigin}/admin/payment?stripe=return`,
        refreshUrl: `${publicOrigin}/admin/payment?stripe=refresh`,
      });
      request.log.info({ userId: claims.sub, accountId }, 'payout onboarding link issued');
      return { url: link.url, stripeAccountId: accountId };
    } catch (err) {
      if (err instanceof AppError) throw err;
      request.log.error({ err, userId: claims.sub }, 'connecting a payout account failed');
      throw new AppError('UNAVAILABLE', PAYMENT_MESSAGES.connectFailed);
    }
  });

  // Owner only. An account not yet complete is re-read from the provider, so coming back from onboarding shows the
  // new status even before (or without) its webhook.
  routeFor(app, paymentsApi.accountStatus, async (request) => {
    const claims = await requireUser(request);
    const given = request.query.userId;
    const userId = given === undefined || given === '' ? claims.sub : userIdParam(given);
    assertOwnUserId(userId, claims);
    let row = await accounts.byUser(userId);
    if (row && row.status !== 'completed') {
      try {
        row = (await sync.syncByAccountId(row.account_id, metadataFrom(request, claims.sub))) ?? row;
      } catch (err) {
        request.log.warn(
          { err, userId },
          'payout account status could not be refreshed; showing the last known one',
        );
      }
    }
    return statusOf(userId, row);
  });
}
