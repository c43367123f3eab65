import type { ColumnType, Generated, Selectable } from 'kysely';
import type { PayoutAccountStatus, TipOptionValue, TipReleaseReason } from '@ques/contracts';
import type { IdempotencyTables, KitTables, NullableTimestamp, OperatorAuditTables, RevocationTables, Timestamp } from '@ques/kit';
import type { PaymentIntentStatus } from '../providers/provider.js';
import type { TipStage } from '../tips/domain/tip.js';

/** Payments' tables, declared once (created by `migrations/`); every query runs on `Kysely<PaymentsDB>`. */
export interface PaymentsDB extends KitTables, IdempotencyTables, RevocationTables, OperatorAuditTables {
  users: UsersTable;
  payout_accounts: PayoutAccountsTable;
  tip_options: TipOptionsTable;
  tips: TipsTable;
  ledger: LedgerTable;
  webhook_events: WebhookEventsTable;
  testmode_accounts: TestModeAccountsTable;
  testmode_sessions: TestModeSessionsTable;
  testmode_payment_intents: TestModePaymentIntentsTable;
}

/** A column with a database default: optional on insert. */
type WithDefault<T> = ColumnType<T, T | undefined, T>;
/** A jsonb column: read back parsed, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

/** Identity's users as payments needs them (fed by identity's events); a deleted one keeps a tombstone. */
export interface UsersTable {
  user_id: string;
  username: string;
  name: string;
  has_email: boolean;
  archive_profile: boolean;
  deleted: boolean;
  version: number;
  updated_at: Timestamp;
}
export type UserRow = Selectable<UsersTable>;

/** Read model of the payout-account aggregate. */
export interface PayoutAccountsTable {
  user_id: string;
  account_id: string;
  country: string;
  status: PayoutAccountStatus;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  updated_at: Timestamp;
  version: number;
}
export type PayoutAccountRow = Selectable<PayoutAccountsTable>;

/** Read model of the tip-options aggregate. */
export interface TipOptionsTable {
  user_id: string;
  tip_options: Json<TipOptionValue[]>;
  tipping_enabled: boolean;
  updated_at: Timestamp;
  version: number;
}
export type TipOptionsRow = Selectable<TipOptionsTable>;

/** One row per tipped question (read model of the tip aggregate); every command on a tip locks it first. */
export interface TipsTable {
  question_id: string;
  recipient_user_id: string;
  asker_user_id: string | null;
  account_id: string;
  payment_ref: string;
  payment_intent_id: string | null;
  /** Cents. */
  amount: number;
  application_fee: number;
  currency: string;
  status: TipStage;
  release_reason: TipReleaseReason | null;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  version: number;
}
export type TipRow = Selectable<TipsTable>;

/** One row per captured tip: what the asker paid, what the platform kept, what the owner got (cents). */
export interface LedgerTable {
  question_id: string;
  recipient_user_id: string;
  payment_ref: string;
  payment_intent_id: string;
  amount: number;
  application_fee: number;
  net: number;
  currency: string;
  captured_at: Timestamp;
}

/** Provider webhook deliveries, deduplicated by the provider's event id. */
export interface WebhookEventsTable {
  event_id: string;
  type: string;
  object_id: string;
  question_id: string | null;
  payload: Json<unknown>;
  received_at: Timestamp;
  deliveries: WithDefault<number>;
  processed_at: NullableTimestamp;
}

/** The test-mode provider's "provider-side" state (empty when Stripe is configured). */
export interface TestModeAccountsTable {
  id: string;
  idempotency_key: string;
  user_id: string;
  country: string;
  charges_enabled: WithDefault<boolean>;
  payouts_enabled: WithDefault<boolean>;
  details_submitted: WithDefault<boolean>;
  return_url: string | null;
  created_at: Generated<Date>;
}

export interface TestModeSessionsTable {
  id: string;
  idempotency_key: string;
  status: 'open' | 'complete' | 'expired';
  amount: number;
  application_fee: number;
  currency: string;
  destination: string;
  recipient_name: string;
  metadata: Json<Record<string, string>>;
  success_url: string;
  cancel_url: string;
  payment_intent_id: string | null;
  expires_at: Timestamp;
  created_at: Generated<Date>;
}

export interface TestModePaymentIntentsTable {
  id: string;
  session_id: string;
  status: PaymentIntentStatus;
  amount: number;
  amount_received: number;
  application_fee: number;
  destination: string;
  metadata: Json<Record<string, string>>;
  captured_at: NullableTimestamp;
  canceled_at: NullableTimestamp;
}
