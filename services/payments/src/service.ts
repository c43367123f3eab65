import { randomBytes } from 'node:crypto';
import {
  startService,
  type EventStore,
  type ServiceContext,
  type ServiceDefinition,
  type ServiceDeps,
  type ServiceRuntime,
} from '@ques/kit';
import { AccountSync } from './accounts/account-sync.js';
import { payoutAccountsProjection, PayoutAccountsReadModel } from './accounts/read-models/payout-accounts.js';
import { registerAccountRoutes } from './accounts/routes.js';
import { paymentsMigrations } from './db/migrations/index.js';
import { paymentsIntegration } from './integration.js';
import type { PaymentProvider } from './providers/provider.js';
import { StripeProvider, type StripeProviderOptions } from './providers/stripe-provider.js';
import { registerTestModePages } from './providers/test-mode/pages.js';
import { TestModeProvider } from './providers/test-mode/test-mode-provider.js';
import { tipOptionsProjection, TipOptionsReadModel } from './tip-options/read-models/tip-options.js';
import { registerTipOptionsRoutes } from './tip-options/routes.js';
import { TipCommands } from './tips/commands.js';
import { questionsConsumer } from './tips/questions-consumer.js';
import type { QuestionsClient } from './tips/questions-client.js';
import { ledgerProjection, tipsProjection, TipsReadModel } from './tips/read-models/tips.js';
import { registerTipRoutes } from './tips/routes.js';
import { usersConsumer, UsersReadModel } from './users/users.js';
import { WEBHOOK_JOB, WebhookInbox } from './webhooks/inbox.js';
import { registerWebhookRoutes } from './webhooks/routes.js';

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

export interface PaymentsOptions {
  provider: ProviderChoice;
  questions: QuestionsClient;
  /** The web app's origin: checkout and onboarding send people back there. */
  publicOrigin: string;
  /** Lower-case ISO code of every tip. Default `usd`. */
  currency?: string;
  /** How long a hosted checkout stays open. Default 31 minutes (Stripe's minimum is 30, counted on its clock). */
  checkoutTtlMs?: number;
  /** How long finalize-payment waits for the answer event. Default 5 s. */
  finalizeWaitMs?: number;
}

export interface PaymentsExtra {
  provider: PaymentProvider;
  commands: TipCommands;
  inbox: WebhookInbox;
  tips: TipsReadModel;
  accounts: PayoutAccountsReadModel;
  users: UsersReadModel;
}

/** What the admin CLI needs: migrations, projections, integration mapping; no routes, no provider. */
export const paymentsCore = {
  name: 'payments',
  context: 'payments',
  migrations: paymentsMigrations,
  projections: [payoutAccountsProjection, tipOptionsProjection, tipsProjection, ledgerProjection],
  toIntegration: paymentsIntegration,
} satisfies Omit<ServiceDefinition<unknown>, 'setup'>;

function createProvider(choice: ProviderChoice, ctx: ServiceContext): PaymentProvider {
  if (choice.kind === 'stripe') return new StripeProvider(choice.options);
  return new TestModeProvider({
    db: ctx.database.db,
    pagesBaseUrl: choice.pagesBaseUrl,
    webhookSecret: choice.webhookSecret ?? `whsec_local_${randomBytes(24).toString('hex')}`,
    clock: ctx.clock,
  });
}

export function createPaymentsService(options: PaymentsOptions): ServiceDefinition<PaymentsExtra> {
  // Jobs, consumers and routes are wired from different views of the context; they must share one set of parts.
  const built = new WeakMap<
    EventStore,
    PaymentsExtra & { sync: AccountSync; tipOptions: TipOptionsReadModel }
  >();
  const partsOf = (ctx: ServiceContext) => {
    const existing = built.get(ctx.store);
    if (existing) return existing;
    const provider = createProvider(options.provider, ctx);
    const db = ctx.database.db;
    const tips = new TipsReadModel(db);
    const accounts = new PayoutAccountsReadModel(db);
    const commands = new TipCommands({ store: ctx.store, clock: ctx.clock, log: ctx.log, provider });
    const sync = new AccountSync({ store: ctx.store, provider, accounts, clock: ctx.clock, log: ctx.log });
    const inbox = new WebhookInbox({
      database: ctx.database,
      log: ctx.log,
      clock: ctx.clock,
      commands,
      accounts: sync,
      tips,
    });
    if (provider instanceof TestModeProvider) provider.attach(inbox);
    const parts = {
      provider,
      commands,
      inbox,
      tips,
      accounts,
      sync,
      users: new UsersReadModel(db),
      tipOptions: new TipOptionsReadModel(db),
    };
    built.set(ctx.store, parts);
    return parts;
  };

  return {
    ...paymentsCore,
    consumes: ['identity', 'questions'],
    consumers: (ctx) => {
      const { commands, tips } = partsOf(ctx);
      return [usersConsumer({ commands, tips, log: ctx.log }), questionsConsumer({ commands, log: ctx.log })];
    },
    jobs: (ctx) => {
      const { commands, inbox } = partsOf(ctx);
      return { ...commands.jobs(), [WEBHOOK_JOB]: inbox.job() };
    },
    async setup(app, ctx) {
      const { provider, commands, inbox, tips, accounts, sync, users, tipOptions } = partsOf(ctx);
      inbox.useScheduler(ctx.scheduler);
      await registerWebhookRoutes(app, { provider, inbox, clock: ctx.clock });
      await registerTipOptionsRoutes(app, { ctx, tipOptions, accounts, users });
      await registerAccountRoutes(app, { ctx, provider, accounts, sync, publicOrigin: options.publicOrigin });
      await registerTipRoutes(app, {
        ctx,
        provider,
        commands,
        questions: options.questions,
        tips,
        tipOptions,
        accounts,
        users,
        publicOrigin: options.publicOrigin,
        currency: options.currency ?? 'usd',
        checkoutTtlMs: options.checkoutTtlMs ?? 31 * 60_000,
        finalizeWaitMs: options.finalizeWaitMs ?? 5_000,
      });
      if (provider instanceof TestModeProvider) await registerTestModePages(app, provider);
      app.addHook('onClose', async () => inbox.settled());
      ctx.log.info({ provider: provider.mode }, 'payments provider ready');
      return { provider, commands, inbox, tips, accounts, users };
    },
  };
}

/** The definition for admin tooling (migrations, rebuilds): never starts a provider. */
export const paymentsService: ServiceDefinition<unknown> = { ...paymentsCore, setup: async () => undefined };

export type PaymentsDeps = ServiceDeps & PaymentsOptions;

export function startPaymentsService(deps: PaymentsDeps): Promise<ServiceRuntime<PaymentsExtra>> {
  const { provider, questions, publicOrigin, currency, checkoutTtlMs, finalizeWaitMs, ...serviceDeps } = deps;
  return startService(
    createPaymentsService({ provider, questions, publicOrigin, currency, checkoutTtlMs, finalizeWaitMs }),
    serviceDeps,
  );
}
