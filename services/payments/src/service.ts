import { randomBytes } from 'node:crypto';
import { opsApi } from '@ques/contracts';
import { guardInternalCalls, operatorAuditProjection, registerOperatorAuditRoute, type ServiceContext, type ServiceDefinition } from '@ques/kit';
import { AccountSync } from './accounts/account-sync.js';
import { payoutAccountCommands, type PayoutAccountCommands } from './accounts/commands.js';
import { payoutAccountsProjection, PayoutAccountsReadModel } from './accounts/read-models/payout-accounts.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { registerExportRoutes } from './exports/export.js';
import { registerOnboardingFactsRoute } from './accounts/onboarding.js';
import { loadPaymentsConfig, type PaymentsConfig } from './config.js';
import { paymentsMigrations } from './db/migrations/index.js';
import type { PaymentsDB } from './db/schema.js';
import { paymentsIntegration } from './integration.js';
import type { PaymentProvider } from './providers/provider.js';
import { StripeProvider, type StripeProviderOptions } from './providers/stripe-provider.js';
import { registerTestModePages } from './providers/test-mode/pages.js';
import { TestModeProvider } from './providers/test-mode/test-mode-provider.js';
import { tipOptionsCommands, type TipOptionsCommands } from './tip-options/commands.js';
import { tipOptionsProjection, TipOptionsReadModel } from './tip-options/read-models/tip-options.js';
import { registerTipOptionsRoutes } from './tip-options/routes.js';
import { tipCommands, type TipCommands } from './tips/commands.js';
import { HttpQuestionsClient, type QuestionsClient } from './tips/questions-client.js';
import { questionsConsumer } from './tips/questions-consumer.js';
import { ledgerProjection, tipsProjection, TipsReadModel } from './tips/read-models/tips.js';
import { TipActions } from './tips/actions.js';
import { CheckoutSaga } from './tips/checkout.js';
import { registerTipRoutes } from './tips/routes.js';
import { TipSettlement } from './tips/settlement.js';
import { usersConsumer, UsersReadModel } from './users/users.js';
import { WEBHOOK_JOB, WebhookInbox } from './webhooks/inbox.js';
import { registerWebhookRoutes } from './webhooks/routes.js';
import { registerPaymentsMetrics } from './tips/metrics.js';

/** Which card provider: Stripe (both keys set) or the local test mode (the embedded default and tests). */
export type ProviderChoice =
  | { kind: 'stripe'; options: StripeProviderOptions }
  | {
      kind: 'test';
      /** Where browsers reach `/pay/test/*` (the BFF's public origin); a function if known only after listening. */
      pagesBaseUrl: string | (() => string);
      /** Signs test-mode webhook posts; random per process when unset. */
      webhookSecret?: string;
    };

/** What a caller (the embedded launcher, tests) may pass instead of what payments builds from its config. */
export interface PaymentsOverrides {
  provider: ProviderChoice;
  /** The call to questions (`POST /internal/questions/tipped`); default: HTTP to `QUESTIONS_URL`. */
  questions: QuestionsClient;
  /** How long finalize-payment waits for the answer event. Default 5 s. */
  finalizeWaitMs: number;
}

/** What payments builds once and its routes, consumers and jobs share. */
export interface PaymentsParts {
  provider: PaymentProvider;
  questions: QuestionsClient;
  commands: TipCommands;
  settlement: TipSettlement;
  accountCommands: PayoutAccountCommands;
  tipOptionsCommands: TipOptionsCommands;
  sync: AccountSync;
  inbox: WebhookInbox;
  tips: TipsReadModel;
  accounts: PayoutAccountsReadModel;
  tipOptions: TipOptionsReadModel;
  users: UsersReadModel;
  /** The checkout saga (create-checkout-session). */
  checkout: CheckoutSaga;
  /** finalize-payment, cancel-payment, earnings. */
  actions: TipActions;
}

type PaymentsContext = ServiceContext<PaymentsDB, PaymentsConfig, PaymentsOverrides>;

/** Stripe when both keys are set, else the local test mode with its pages on the public origin. */
function providerFromConfig(config: PaymentsConfig): ProviderChoice {
  return config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
    ? {
        kind: 'stripe',
        options: {
          secretKey: config.STRIPE_SECRET_KEY,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          host: config.STRIPE_API_HOST,
          port: config.STRIPE_API_PORT,
          protocol: config.STRIPE_API_PROTOCOL,
        },
      }
    : { kind: 'test', pagesBaseUrl: config.PUBLIC_ORIGIN, webhookSecret: config.TEST_MODE_WEBHOOK_SECRET };
}

function createProvider(choice: ProviderChoice, ctx: PaymentsContext): PaymentProvider {
  if (choice.kind === 'stripe') return new StripeProvider(choice.options);
  return new TestModeProvider({
    db: ctx.db,
    pagesBaseUrl: choice.pagesBaseUrl,
    webhookSecret: choice.webhookSecret ?? `whsec_local_${randomBytes(24).toString('hex')}`,
    clock: ctx.clock,
  });
}

function build(ctx: PaymentsContext): PaymentsParts {
  const { store, db, clock, log, config, overrides } = ctx;
  const provider = createProvider(overrides.provider ?? providerFromConfig(config), ctx);
  const questions =
    overrides.questions ?? new HttpQuestionsClient({ baseUrl: config.QUESTIONS_URL, internalToken: config.INTERNAL_API_TOKEN });
  const tips = new TipsReadModel(db);
  const accounts = new PayoutAccountsReadModel(db);
  const commands = tipCommands(store, clock);
  const accountCommands = payoutAccountCommands(store);
  const settlement = new TipSettlement({ db, tips: commands, provider, clock, log });
  const sync = new AccountSync({ db, commands: accountCommands, provider, accounts, clock, log });
  const inbox = new WebhookInbox({ db, log, clock, settlement, accounts: sync, tips, provider, commands, scheduler: ctx.scheduler });
  if (provider instanceof TestModeProvider) provider.attach(inbox);
  const tipOptions = new TipOptionsReadModel(db);
  const users = new UsersReadModel(db);
  const currency = config.PAYMENTS_CURRENCY;
  const checkout = new CheckoutSaga({
    clock,
    provider,
    commands,
    questions,
    tips,
    tipOptions,
    accounts,
    users,
    publicOrigin: config.PUBLIC_ORIGIN,
    currency,
    checkoutTtlMs: config.CHECKOUT_TTL_MINUTES * 60_000,
  });
  const actions = new TipActions({
    clock,
    commands,
    settlement,
    tips,
    currency,
    finalizeWaitMs: overrides.finalizeWaitMs ?? 5_000,
  });
  return {
    provider,
    questions,
    commands,
    settlement,
    accountCommands,
    tipOptionsCommands: tipOptionsCommands(store),
    sync,
    inbox,
    tips,
    accounts,
    tipOptions,
    users,
    checkout,
    actions,
  };
}

export const paymentsService: ServiceDefinition<PaymentsDB, PaymentsConfig, PaymentsParts, PaymentsOverrides> = {
  name: 'payments',
  config: loadPaymentsConfig,
  migrations: paymentsMigrations,
  // The operators' audit (issue 18): the console's stream actions on payments are listed like every service's.
  projections: [payoutAccountsProjection, tipOptionsProjection, tipsProjection, ledgerProjection, operatorAuditProjection],
  toIntegration: paymentsIntegration,
  consumes: ['identity', 'questions'],
  build,
  async routes(app, parts, ctx) {
    const { provider, inbox } = parts;
    // Identity's export and checklist reads (/internal/*) need the token.
    guardInternalCalls(app, ctx.config.INTERNAL_API_TOKEN);
    const publicOrigin = ctx.config.PUBLIC_ORIGIN;
    await registerWebhookRoutes(app, { provider, inbox, clock: ctx.clock });
    await registerTipOptionsRoutes(app, { ctx, commands: parts.tipOptionsCommands, tipOptions: parts.tipOptions, accounts: parts.accounts, users: parts.users });
    await registerAccountRoutes(app, { ctx, commands: parts.accountCommands, provider, accounts: parts.accounts, sync: parts.sync, publicOrigin });
    await registerTipRoutes(app, { checkout: parts.checkout, actions: parts.actions });
    if (provider instanceof TestModeProvider) await registerTestModePages(app, provider);
    // Issue 15: payments' part of a person's data export, read by identity.
    registerExportRoutes(app, ctx.db);
    // Issue 28: payments' facts for the owner's set-up checklist, read by identity.
    registerOnboardingFactsRoute(app, { accounts: parts.accounts, tipOptions: parts.tipOptions, sync: parts.sync });
    registerOperatorAuditRoute(app, ctx.db, opsApi.auditPayments);
    app.addHook('onClose', async () => inbox.settled());
    ctx.log.info({ provider: provider.mode }, 'payments provider ready');
  },
  consumers: ({ commands, tips }, { log }) => [usersConsumer({ commands, tips, log }), questionsConsumer({ commands, log })],
  jobs: ({ settlement, inbox }) => ({ ...settlement.jobs(), [WEBHOOK_JOB]: inbox.job() }),
  metrics: (_parts, { db }, metrics) => registerPaymentsMetrics(db, metrics),
};
