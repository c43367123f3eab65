import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { toProviderEvent, verifyStripeSignature } from '../stripe-provider.js';
import {
  type CheckoutCreated,
  type CheckoutSnapshot,
  type ConnectedAccount,
  type CreateCheckoutInput,
  type PaymentProvider,
  type ProviderEvent,
  type SettlementOutcome,
  type Within,
} from '../provider.js';
import type { PaymentsDB } from '../../db/schema.js';
import {
  accountJson,
  accountOf,
  paymentIntentJson,
  sessionJson,
  successUrl,
  type AccountRow,
  type PaymentIntentRow,
  type SessionRow,
  type StripeShapedEvent,
} from './stripe-shapes.js';

/** Where the test mode delivers its events: the same inbox Stripe's webhooks go to, in the caller's transaction. */
export interface EventSink {
  accept(event: ProviderEvent, trx: Kysely<PaymentsDB>): Promise<unknown>;
  /** Called after a commit that emitted events, so they are processed now rather than at the next poll. */
  kick(): void;
}

export interface TestModeProviderOptions {
  db: Kysely<PaymentsDB>;
  /**
   * Where the hosted pages are reachable from a browser (through the BFF): `${pagesBaseUrl}/pay/test/...`. A function
   * when the address is known only after listening (the embedded launcher on port 0).
   */
  pagesBaseUrl: string | (() => string);
  /** Signs and verifies test-mode webhook posts (the same scheme as Stripe's). */
  webhookSecret: string;
  clock: () => Date;
}

const localId = (prefix: string) => `${prefix}_local_${randomBytes(12).toString('hex')}`;

export const TEST_MODE_PAGES = '/pay/test';

/**
 * The local test-mode provider: no network, no money. It keeps its "provider-side" state in this service's own
 * tables (`testmode_*`), serves its hosted checkout and onboarding pages (see `pages.ts`), and emits Stripe-shaped
 * events into the same webhook inbox Stripe's deliveries go to — so the service runs the same code in both modes.
 */
export class TestModeProvider implements PaymentProvider {
  readonly mode = 'test' as const;
  private sink: EventSink | null = null;

  constructor(private readonly opts: TestModeProviderOptions) {}

  /** Connects the event sink (the webhook inbox, built after the provider). */
  attach(sink: EventSink): void {
    this.sink = sink;
  }

  private tx<T>(within: Within, fn: (trx: Kysely<PaymentsDB>) => Promise<T>): Promise<T> {
    return within ? fn(within) : this.opts.db.transaction().execute(fn);
  }

  private pagesBase(): string {
    const base = this.opts.pagesBaseUrl;
    return typeof base === 'function' ? base() : base;
  }

  private now(): Date {
    return this.opts.clock();
  }

  private async emit(trx: Kysely<PaymentsDB>, type: string, object: Record<string, unknown>): Promise<void> {
    if (!this.sink) throw new Error('test-mode provider has no event sink attached');
    const event: StripeShapedEvent = {
      id: localId('evt'),
      object: 'event',
      type,
      created: Math.floor(this.now().getTime() / 1000),
      livemode: false,
      data: { object },
    };
    await this.sink.accept(toProviderEvent(event), trx);
  }

  /** Runs `fn` in its own transaction (or the caller's), then lets the inbox process what it emitted. */
  private async emitting<T>(within: Within, fn: (trx: Kysely<PaymentsDB>) => Promise<T>): Promise<T> {
    const result = await this.tx(within, fn);
    if (!within) this.sink?.kick();
    return result;
  }

  // ---- accounts ----

  async createConnectedAccount(
    input: { userId: string; country: string; idempotencyKey: string },
    within?: Within,
  ): Promise<ConnectedAccount> {
    return this.tx(within, async (trx) => {
      await trx
        .insertInto('testmode_accounts')
        .values({
          id: localId('acct'),
          idempotency_key: input.idempotencyKey,
          user_id: input.userId,
          country: input.country,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const row = await trx
        .selectFrom('testmode_accounts')
        .selectAll()
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirstOrThrow();
      return accountOf(row);
    });
  }

  async createOnboardingLink(
    input: { accountId: string; returnUrl: string; refreshUrl: string },
    within?: Within,
  ): Promise<{ url: string }> {
    return this.tx(within, async (trx) => {
      const updated = await trx
        .updateTable('testmode_accounts')
        .set({ return_url: input.returnUrl })
        .where('id', '=', input.accountId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0)
        throw new Error(`No such test-mode account: ${input.accountId}`);
      return { url: `${this.pagesBase()}${TEST_MODE_PAGES}/onboarding/${input.accountId}` };
    });
  }

  async retrieveAccount(accountId: string, within?: Within): Promise<ConnectedAccount> {
    const row = await this.account(accountId, within);
    if (!row) throw new Error(`No such test-mode account: ${accountId}`);
    return accountOf(row);
  }

  async account(accountId: string, within?: Within): Promise<AccountRow | undefined> {
    return await (within ?? this.opts.db)
      .selectFrom('testmode_accounts')
      .selectAll()
      .where('id', '=', accountId)
      .executeTakeFirst();
  }

  /** The onboarding page's "Complete onboarding": the account can take charges and payouts. */
  async completeOnboarding(accountId: string): Promise<string | null> {
    return this.emitting(undefined, async (trx) => {
      const row = await trx
        .selectFrom('testmode_accounts')
        .selectAll()
        .where('id', '=', accountId)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return null;
      if (!(row.charges_enabled && row.payouts_enabled && row.details_submitted)) {
        await trx
          .updateTable('testmode_accounts')
          .set({ charges_enabled: true, payouts_enabled: true, details_submitted: true })
          .where('id', '=', accountId)
          .execute();
        await this.emit(
          trx,
          'account.updated',
          accountJson({ ...row, charges_enabled: true, payouts_enabled: true, details_submitted: true }),
        );
      }
      return row.return_url;
    });
  }

  // ---- checkout ----

  async createCheckout(input: CreateCheckoutInput, within?: Within): Promise<CheckoutCreated> {
    return this.tx(within, async (trx) => {
      await trx
        .insertInto('testmode_sessions')
        .values({
          id: localId('cs'),
          idempotency_key: input.idempotencyKey,
          status: 'open',
          amount: input.amount,
          application_fee: input.applicationFee,
          currency: input.currency,
          destination: input.destinationAccountId,
          recipient_name: input.recipientName,
          metadata: JSON.stringify({ questionId: input.questionId, recipientUserId: input.recipientUserId }),
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          expires_at: input.expiresAt,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const row = await trx
        .selectFrom('testmode_sessions')
        .selectAll()
        .where('idempotency_key', '=', input.idempotencyKey)
        .executeTakeFirstOrThrow();
      return { sessionId: row.id, url: this.checkoutPageUrl(row.id), paymentIntentId: row.payment_intent_id };
    });
  }

  checkoutPageUrl(sessionId: string): string {
    return `${this.pagesBase()}${TEST_MODE_PAGES}/checkout/${sessionId}`;
  }

  async session(sessionId: string, within?: Within): Promise<SessionRow | undefined> {
    return await (within ?? this.opts.db)
      .selectFrom('testmode_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirst();
  }

  async retrieveCheckout(sessionId: string, within?: Within): Promise<CheckoutSnapshot> {
    const db = within ?? this.opts.db;
    const row = await this.session(sessionId, within);
    if (!row) throw new Error(`No such test-mode checkout session: ${sessionId}`);
    const pi = row.payment_intent_id
      ? await db
          .selectFrom('testmode_payment_intents')
          .selectAll()
          .where('id', '=', row.payment_intent_id)
          .executeTakeFirst()
      : undefined;
    // Like Stripe, an open session past its expiry is expired.
    const status =
      row.status === 'open' && row.expires_at.getTime() <= this.now().getTime() ? 'expired' : row.status;
    return {
      sessionId: row.id,
      status,
      paymentIntent: pi ? { id: pi.id, status: pi.status } : null,
      questionId: row.metadata.questionId ?? null,
    };
  }

  /** The checkout page's "Pay": the card is authorized (held), not charged. Returns where to send the browser. */
  async pay(sessionId: string): Promise<{ status: SessionRow['status']; redirect: string } | null> {
    return this.emitting(undefined, async (trx) => {
      const row = await this.lockSession(trx, sessionId);
      if (!row) return null;
      if (row.status === 'open' && row.expires_at.getTime() <= this.now().getTime()) {
        await this.expireSession(trx, row);
        return { status: 'expired' as const, redirect: row.cancel_url };
      }
      if (row.status !== 'open')
        return { status: row.status, redirect: row.status === 'complete' ? successUrl(row) : row.cancel_url };
      const pi: PaymentIntentRow = {
        id: localId('pi'),
        session_id: row.id,
        status: 'requires_capture',
        amount: row.amount,
        amount_received: 0,
        application_fee: row.application_fee,
        destination: row.destination,
        metadata: row.metadata,
      };
      await trx
        .insertInto('testmode_payment_intents')
        .values({ ...pi, metadata: JSON.stringify(pi.metadata) })
        .execute();
      await trx
        .updateTable('testmode_sessions')
        .set({ status: 'complete', payment_intent_id: pi.id })
        .where('id', '=', row.id)
        .execute();
      await this.emit(
        trx,
        'checkout.session.completed',
        sessionJson({ ...row, status: 'complete', payment_intent_id: pi.id }),
      );
      await this.emit(trx, 'payment_intent.amount_capturable_updated', paymentIntentJson(pi));
      return { status: 'complete' as const, redirect: successUrl(row) };
    });
  }

  /** The checkout page's "Cancel": the session ends unpaid. */
  async cancelCheckout(
    sessionId: string,
  ): Promise<{ status: SessionRow['status']; redirect: string } | null> {
    return this.emitting(undefined, async (trx) => {
      const row = await this.lockSession(trx, sessionId);
      if (!row) return null;
      if (row.status === 'open') await this.expireSession(trx, row);
      return {
        status: row.status === 'complete' ? 'complete' : ('expired' as const),
        redirect: row.status === 'complete' ? successUrl(row) : row.cancel_url,
      };
    });
  }

  // ---- settlement ----

  async capture(
    input: { paymentIntentId: string; idempotencyKey: string },
    within?: Within,
  ): Promise<SettlementOutcome> {
    return this.emitting(within, async (trx) => {
      const pi = await trx
        .selectFrom('testmode_payment_intents')
        .selectAll()
        .where('id', '=', input.paymentIntentId)
        .forUpdate()
        .executeTakeFirst();
      if (!pi) throw new Error(`No such test-mode PaymentIntent: ${input.paymentIntentId}`);
      if (pi.status === 'succeeded') return 'captured' as const;
      if (pi.status === 'canceled') return 'released' as const;
      await trx
        .updateTable('testmode_payment_intents')
        .set({ status: 'succeeded', amount_received: pi.amount, captured_at: this.now() })
        .where('id', '=', pi.id)
        .execute();
      await this.emit(
        trx,
        'payment_intent.succeeded',
        paymentIntentJson({ ...pi, status: 'succeeded', amount_received: pi.amount }),
      );
      return 'captured' as const;
    });
  }

  async release(
    input: { sessionId: string; idempotencyKeyPrefix: string },
    within?: Within,
  ): Promise<SettlementOutcome> {
    return this.emitting(within, async (trx) => {
      const row = await this.lockSession(trx, input.sessionId);
      if (!row) throw new Error(`No such test-mode checkout session: ${input.sessionId}`);
      if (row.status === 'open') {
        await this.expireSession(trx, row);
        return 'released' as const;
      }
      if (row.status === 'expired' || !row.payment_intent_id) return 'released' as const;
      const pi = await trx
        .selectFrom('testmode_payment_intents')
        .selectAll()
        .where('id', '=', row.payment_intent_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (pi.status === 'succeeded') return 'captured' as const;
      if (pi.status !== 'canceled') {
        await trx
          .updateTable('testmode_payment_intents')
          .set({ status: 'canceled', canceled_at: this.now() })
          .where('id', '=', pi.id)
          .execute();
        await this.emit(trx, 'payment_intent.canceled', paymentIntentJson({ ...pi, status: 'canceled' }));
      }
      return 'released' as const;
    });
  }

  private async lockSession(trx: Kysely<PaymentsDB>, sessionId: string): Promise<SessionRow | undefined> {
    return await trx
      .selectFrom('testmode_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .forUpdate()
      .executeTakeFirst();
  }

  private async expireSession(trx: Kysely<PaymentsDB>, row: SessionRow): Promise<void> {
    await trx.updateTable('testmode_sessions').set({ status: 'expired' }).where('id', '=', row.id).execute();
    await this.emit(trx, 'checkout.session.expired', sessionJson({ ...row, status: 'expired' }));
  }

  /** What the provider's side holds for a PaymentIntent (tests and the pages read it). */
  async paymentIntent(id: string): Promise<PaymentIntentRow | undefined> {
    return await this.opts.db
      .selectFrom('testmode_payment_intents')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  // ---- webhooks ----

  verifyWebhook(rawBody: Buffer, signature: string | undefined, receivedAt: Date): ProviderEvent {
    return verifyStripeSignature(rawBody, signature, [this.opts.webhookSecret], receivedAt);
  }
}
