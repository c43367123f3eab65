import type { Kysely } from 'kysely';
import type { PaymentsDB } from '../db/schema.js';

/**
 * The card payment provider, as payments uses it. Two implementations: Stripe (the real SDK) and the local test
 * mode. Both speak Stripe's vocabulary (Checkout Sessions, PaymentIntents with manual capture, Connect accounts,
 * signed webhook events), so the service's code path is the same in both.
 */

export interface ConnectedAccount {
  accountId: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
}

export interface CreateCheckoutInput {
  questionId: string;
  recipientUserId: string;
  /** Shown on the hosted page. */
  recipientName: string;
  /** The owner's connected account: the destination of the charge. */
  destinationAccountId: string;
  /** Cents. */
  amount: number;
  /** Cents kept by the platform. */
  applicationFee: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** Deterministic per question: a retried create returns the same session. */
  idempotencyKey: string;
}

export interface CheckoutCreated {
  sessionId: string;
  url: string;
  /** Stripe creates the PaymentIntent only when the card is submitted. */
  paymentIntentId: string | null;
}

export type PaymentIntentStatus =
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'
  | 'processing'
  | 'requires_payment_method'
  | 'requires_action'
  | 'requires_confirmation';

/** A checkout as the provider sees it now (webhooks only say "look again"; this is the truth). */
export interface CheckoutSnapshot {
  sessionId: string;
  status: 'open' | 'complete' | 'expired';
  paymentIntent: { id: string; status: PaymentIntentStatus } | null;
  /** What we put in the metadata when creating it. */
  questionId: string | null;
}

/** Where a capture or release left the PaymentIntent. */
export type SettlementOutcome = 'captured' | 'released';

/** A verified webhook event, reduced to what dispatching needs. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** Seconds since the epoch (Stripe's `created`). */
  created: number;
  objectId: string;
  /** `metadata.questionId` of the object, when it is one of our checkouts or PaymentIntents. */
  questionId: string | null;
  payload: unknown;
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * The transaction the caller is in, if any. Stripe ignores it (it is an HTTP API); the test mode keeps the
 * provider's state in this service's database and must use the caller's transaction — the embedded database is a
 * single session, so a second connection opened from inside a transaction would wait forever.
 */
export type Within = Kysely<PaymentsDB> | undefined;

export interface PaymentProvider {
  readonly mode: 'stripe' | 'test';
  createConnectedAccount(
    input: { userId: string; country: string; idempotencyKey: string },
    within?: Within,
  ): Promise<ConnectedAccount>;
  /** The hosted onboarding page. */
  createOnboardingLink(
    input: { accountId: string; returnUrl: string; refreshUrl: string },
    within?: Within,
  ): Promise<{ url: string }>;
  retrieveAccount(accountId: string, within?: Within): Promise<ConnectedAccount>;
  createCheckout(input: CreateCheckoutInput, within?: Within): Promise<CheckoutCreated>;
  retrieveCheckout(sessionId: string, within?: Within): Promise<CheckoutSnapshot>;
  /** Captures an authorized PaymentIntent; `released` when it was cancelled meanwhile (nothing to capture). */
  capture(
    input: { paymentIntentId: string; idempotencyKey: string },
    within?: Within,
  ): Promise<SettlementOutcome>;
  /**
   * Lets go of a checkout: expires it while open, cancels its PaymentIntent once authorized. `captured` if it was
   * already captured (never by us — then nothing is released).
   */
  release(
    input: { sessionId: string; idempotencyKeyPrefix: string },
    within?: Within,
  ): Promise<SettlementOutcome>;
  /** Verifies the signature of a webhook's raw body; throws `WebhookSignatureError`. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined, receivedAt: Date): ProviderEvent;
}

/** Deterministic idempotency keys: a retry (ours or the SDK's) can never capture, cancel or create twice. */
export const idempotencyKeys = {
  account: (userId: string) => `ques-account-${userId}`,
  checkout: (questionId: string) => `ques-checkout-${questionId}`,
  capture: (questionId: string) => `ques-capture-${questionId}`,
  release: (questionId: string) => `ques-release-${questionId}`,
};

/** Stripe's default (and ours): a signature older than 5 minutes is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
