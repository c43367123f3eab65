import type { Selectable } from 'kysely';
import type { ConnectedAccount } from '../provider.js';
import type {
  TestModeAccountsTable,
  TestModePaymentIntentsTable,
  TestModeSessionsTable,
} from '../../db/schema.js';

// The test mode's provider-side objects as Stripe shapes them (accounts, checkout sessions, payment intents, events),
// so the webhook inbox and the pages read them exactly as they read Stripe's.

/** A Stripe-shaped event, as the test mode emits it. */
export interface StripeShapedEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  data: { object: Record<string, unknown> };
}

export type SessionRow = Selectable<TestModeSessionsTable>;
/** A PaymentIntent as this provider hands it around (the row without its timestamps). */
export type PaymentIntentRow = Omit<Selectable<TestModePaymentIntentsTable>, 'captured_at' | 'canceled_at'>;
export type AccountRow = Selectable<TestModeAccountsTable>;

export const accountOf = (row: AccountRow): ConnectedAccount => ({
  accountId: row.id,
  chargesEnabled: row.charges_enabled,
  payoutsEnabled: row.payouts_enabled,
  detailsSubmitted: row.details_submitted,
});

export const successUrl = (row: SessionRow) =>
  row.success_url.replace('{CHECKOUT_SESSION_ID}', encodeURIComponent(row.id));

export const accountJson = (row: AccountRow) => ({
  id: row.id,
  object: 'account',
  charges_enabled: row.charges_enabled,
  payouts_enabled: row.payouts_enabled,
  details_submitted: row.details_submitted,
  metadata: { userId: row.user_id },
});

export const sessionJson = (row: SessionRow) => ({
  id: row.id,
  object: 'checkout.session',
  status: row.status,
  amount_total: row.amount,
  currency: row.currency,
  payment_intent: row.payment_intent_id,
  payment_status: 'unpaid',
  metadata: row.metadata,
});

export const paymentIntentJson = (pi: PaymentIntentRow) => ({
  id: pi.id,
  object: 'payment_intent',
  status: pi.status,
  amount: pi.amount,
  amount_received: pi.amount_received,
  capture_method: 'manual',
  application_fee_amount: pi.application_fee,
  transfer_data: { destination: pi.destination },
  metadata: pi.metadata,
});
