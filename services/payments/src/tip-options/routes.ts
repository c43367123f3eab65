import { DEFAULT_TIP_OPTIONS, PAYMENT_MESSAGES, paymentsApi, toTipOption } from '@ques/contracts';
import { metadataFrom, requireUser, routeFor, type HttpApp, type ServiceContext } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import type { PayoutAccountsReadModel } from '../accounts/read-models/payout-accounts.js';
import { assertOwnUserId, userIdParam } from '../http.js';
import type { UsersReadModel } from '../users/users.js';
import type { TipOptionsCommands } from './commands.js';
import type { TipOptionsReadModel } from './read-models/tip-options.js';

export interface TipOptionsRoutesDeps {
  ctx: ServiceContext<PaymentsDB>;
  commands: TipOptionsCommands;
  tipOptions: TipOptionsReadModel;
  accounts: PayoutAccountsReadModel;
  users: UsersReadModel;
}

export async function registerTipOptionsRoutes(
  app: HttpApp,
  deps: TipOptionsRoutesDeps,
): Promise<void> {
  const { ctx, commands, tipOptions, accounts, users } = deps;

  // Public: the ask modal shows the selector only when tipping is on (spec §2). "On" here means the owner turned it
  // on *and* can still be paid (account completed, profile not an archive), so nobody is sent to a checkout that fails.
  routeFor(app, paymentsApi.getTipOptions, async (request) => {
    const userId = userIdParam(request.query.userId);
    const [saved, account, user] = await Promise.all([
      tipOptions.byUser(userId),
      accounts.byUser(userId),
      users.byId(userId),
    ]);
    const deleted = !user && (await users.isDeleted(userId));
    return {
      tipOptions: saved && !deleted ? saved.tip_options.map(toTipOption) : DEFAULT_TIP_OPTIONS,
      tippingEnabled:
        !!saved?.tipping_enabled && account?.status === 'completed' && !deleted && !user?.archive_profile,
    };
  });

  routeFor(app, paymentsApi.saveTipOptions, async (request) => {
    const claims = await requireUser(request);
    const { body } = request;
    assertOwnUserId(body.userId, claims);
    const account = await accounts.byUser(claims.sub);
    const { state } = await commands.handle(
      claims.sub,
      {
        type: 'SaveTipOptions',
        data: {
          userId: claims.sub,
          ...(body.tipOptions ? { tipOptions: body.tipOptions } : {}),
          tippingEnabled: body.tippingEnabled,
          accountStatus: account?.status ?? null,
          now: ctx.clock(),
        },
      },
      metadataFrom(request, claims.sub),
    );
    request.log.info({ userId: claims.sub, tippingEnabled: state.tippingEnabled }, 'tip options saved');
    return {
      message: PAYMENT_MESSAGES.saved,
      tipOptions: state.tipOptions.map(toTipOption),
      tippingEnabled: state.tippingEnabled,
    };
  });
}
