import Stripe from 'stripe';
import { feeBreakdownText } from '@ques/contracts';
import {
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
  type CheckoutCreated,
  type CheckoutSnapshot,
  type ConnectedAccount,
  type CreateCheckoutInput,
  type PaymentIntentStatus,
  type PaymentProvider,
  type ProviderEvent,
  type SettlementOutcome,
} from './provider.js';

export interface StripeProviderOptions {
  secretKey: string;
  /**
   * The endpoint's signing secret. Several may be given, comma-separated: Stripe signs each webhook endpoint with its
   * own secret, and Connect events (`account.updated` of connected accounts) may come through a second endpoint.
   */
  webhookSecret: string;
  /** API host/port/protocol: Stripe's by default; a local double in tests. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  timeoutMs?: number;
  /** The SDK retries network failures with the same idempotency key. */
  maxNetworkRetries?: number;
}

type StripeAccount = Awaited<ReturnType<Stripe['accounts']['retrieve']>>;

const accountOf = (
  account: Pick<StripeAccount, 'id' | 'charges_enabled' | 'payouts_enabled' | 'details_submitted'>,
): ConnectedAccount => ({
  accountId: account.id,
  chargesEnabled: account.charges_enabled === true,
  payoutsEnabled: account.payouts_enabled === true,
  detailsSubmitted: account.details_submitted === true,
});

/**
 * A 400 from Stripe on capture, cancel or expire means the object is already in another state (captured, cancelled,
 * paid, expired). We do not rely on the exact code: the caller re-reads the object and goes by what it is.
 */
function isUnexpectedState(err: unknown): boolean {
  const e = err as { type?: string; statusCode?: number } | null;
  return e?.type === 'StripeInvalidRequestError' && e.statusCode === 400;
}

/**
 * Stripe Connect with destination charges: the asker pays the platform, `transfer_data.destination` sends the
 * owner's share to their connected account and `application_fee_amount` keeps the platform's 10 %. The card is
 * only authorized (`capture_method: manual`) until the answer. Every mutating call carries a deterministic
 * idempotency key, so the SDK's retries and ours are safe.
 */
export class StripeProvider implements PaymentProvider {
  readonly mode = 'stripe' as const;
  readonly stripe: Stripe;
  private readonly webhookSecrets: string[];

  constructor(opts: StripeProviderOptions) {
    this.stripe = new Stripe(opts.secretKey, {
      host: opts.host,
      port: opts.port,
      protocol: opts.protocol,
      timeout: opts.timeoutMs ?? 20_000,
      maxNetworkRetries: opts.maxNetworkRetries ?? 2,
      appInfo: { name: 'ques-payments' },
    });
    this.webhookSecrets = opts.webhookSecret
      .split(',')
      .map((secret) => secret.trim())
      .filter(Boolean);
  }

  async createConnectedAccount(input: {
    userId: string;
    country: string;
    idempotencyKey: string;
  }): Promise<ConnectedAccount> {
    const account = await this.stripe.accounts.create(
      {
        type: 'express',
        country: input.country,
        capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        metadata: { userId: input.userId },
      },
      { idempotencyKey: input.idempotencyKey },
    );
    return accountOf(account);
  }

  async createOnboardingLink(input: {
    accountId: string;
    returnUrl: string;
    refreshUrl: string;
  }): Promise<{ url: string }> {
    const link = await this.stripe.accountLinks.create({
      account: input.accountId,
      type: 'account_onboarding',
      return_url: input.returnUrl,
      refresh_url: input.refreshUrl,
    });
    return { url: link.url };
  }

  async retrieveAccount(accountId: string): Promise<ConnectedAccount> {
    return accountOf(await this.stripe.accounts.retrieve(accountId));
  }

  async createCheckout(input: CreateCheckoutInput): Promise<CheckoutCreated> {
    const metadata = { questionId: input.questionId, recipientUserId: input.recipientUserId };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: input.questionId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.currency,
              unit_amount: input.amount,
              product_data: {
                name: `Tip for ${input.recipientName}`,
                description:
                  'Held on your card until your question is answered; released, never charged, if it is not answered within 5 days.',
              },
            },
          },
        ],
        payment_intent_data: {
          capture_method: 'manual',
          application_fee_amount: input.applicationFee,
          transfer_data: { destination: input.destinationAccountId },
          metadata,
        },
        metadata,
        // The fee breakdown the asker saw in the ask modal, above Stripe's pay button (issue 14).
        custom_text: {
          submit: { message: feeBreakdownText(input.recipientName, input.amount, input.currency) },
        },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      },
      { idempotencyKey: input.idempotencyKey },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { sessionId: session.id, url: session.url, paymentIntentId: idOf(session.payment_intent) };
  }

  async retrieveCheckout(sessionId: string): Promise<CheckoutSnapshot> {
    const session = await this.stripe.checkout.sessions.retrieve(sessionId, { expand: ['payment_intent'] });
    let paymentIntent: CheckoutSnapshot['paymentIntent'] = null;
    const pi = session.payment_intent;
    if (typeof pi === 'string') {
      const retrieved = await this.stripe.paymentIntents.retrieve(pi);
      paymentIntent = { id: retrieved.id, status: retrieved.status as PaymentIntentStatus };
    } else if (pi) {
      paymentIntent = { id: pi.id, status: pi.status as PaymentIntentStatus };
    }
    return {
      sessionId: session.id,
      status: (session.status ?? 'open') as CheckoutSnapshot['status'],
      paymentIntent,
      questionId: session.metadata?.questionId ?? null,
    };
  }

  async capture(input: { paymentIntentId: string; idempotencyKey: string }): Promise<SettlementOutcome> {
    try {
      const pi = await this.stripe.paymentIntents.capture(
        input.paymentIntentId,
        {},
        { idempotencyKey: input.idempotencyKey },
      );
      return outcomeOf(pi.status as PaymentIntentStatus, 'captured');
    } catch (err) {
      if (!isUnexpectedState(err)) throw err;
      // Already captured (by an earlier attempt whose answer we lost) or cancelled: the PaymentIntent says which.
      const pi = await this.stripe.paymentIntents.retrieve(input.paymentIntentId);
      return outcomeOf(pi.status as PaymentIntentStatus, null);
    }
  }

  async release(input: { sessionId: string; idempotencyKeyPrefix: string }): Promise<SettlementOutcome> {
    let snapshot = await this.retrieveCheckout(input.sessionId);
    if (snapshot.status === 'open') {
      try {
        await this.stripe.checkout.sessions.expire(
          input.sessionId,
          {},
          { idempotencyKey: `${input.idempotencyKeyPrefix}-expire` },
        );
        return 'released';
      } catch (err) {
        if (!isUnexpectedState(err)) throw err;
        // Paid at the very moment we expired it: fall through and cancel the authorization instead.
        snapshot = await this.retrieveCheckout(input.sessionId);
      }
    }
    const pi = snapshot.paymentIntent;
    if (snapshot.status === 'expired' || !pi) return 'released';
    if (pi.status === 'succeeded') return 'captured';
    if (pi.status === 'canceled') return 'released';
    try {
      const cancelled = await this.stripe.paymentIntents.cancel(
        pi.id,
        {},
        { idempotencyKey: `${input.idempotencyKeyPrefix}-cancel` },
      );
      return outcomeOf(cancelled.status as PaymentIntentStatus, 'released');
    } catch (err) {
      if (!isUnexpectedState(err)) throw err;
      const again = await this.stripe.paymentIntents.retrieve(pi.id);
      return outcomeOf(again.status as PaymentIntentStatus, null);
    }
  }

  verifyWebhook(rawBody: Buffer, signature: string | undefined, receivedAt: Date): ProviderEvent {
    return verifyStripeSignature(rawBody, signature, this.webhookSecrets, receivedAt);
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

function outcomeOf(status: PaymentIntentStatus, expected: SettlementOutcome | null): SettlementOutcome {
  if (status === 'succeeded') return 'captured';
  if (status === 'canceled') return 'released';
  if (expected) return expected;
  throw new Error(`PaymentIntent is ${status}: neither captured nor cancelled`);
}

/** Reduces any Stripe-shaped event (SDK-verified, or the test mode's) to what dispatching needs. */
export function toProviderEvent(event: {
  id: string;
  type: string;
  created: number;
  data: { object: unknown };
}): ProviderEvent {
  const object = (event.data?.object ?? {}) as { id?: unknown; metadata?: Record<string, unknown> | null };
  const questionId = object.metadata?.questionId;
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    objectId: typeof object.id === 'string' ? object.id : '',
    questionId: typeof questionId === 'string' ? questionId : null,
    payload: event,
  };
}

/**
 * The event of a webhook post whose `stripe-signature` one of `secrets` signed (several while a secret is rolled), by
 * Stripe's own check; the test mode signs its posts the same way.
 */
export function verifyStripeSignature(
  rawBody: Buffer,
  signature: string | undefined,
  secrets: readonly string[],
  receivedAt: Date,
): ProviderEvent {
  if (!signature) throw new WebhookSignatureError('missing stripe-signature header');
  let failure = 'no webhook secret configured';
  for (const secret of secrets) {
    try {
      const event = Stripe.webhooks.constructEvent(
        rawBody,
        signature,
        secret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        receivedAt.getTime(),
      );
      return toProviderEvent(event);
    } catch (err) {
      failure = (err as Error).message.split('\n')[0] ?? 'invalid signature';
    }
  }
  throw new WebhookSignatureError(failure);
}
