import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Identity's users as payments needs them (fed by identity's events): who can be tipped, and their name for the
  // checkout page. A deleted account keeps a tombstone so a late event cannot revive it.
  await db.schema
    .createTable('users')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('has_email', 'boolean', (c) => c.notNull())
    .addColumn('archive_profile', 'boolean', (c) => c.notNull())
    .addColumn('deleted', 'boolean', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('payout_accounts')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().unique())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('charges_enabled', 'boolean', (c) => c.notNull())
    .addColumn('payouts_enabled', 'boolean', (c) => c.notNull())
    .addColumn('details_submitted', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('tip_options')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('tip_options', 'jsonb', (c) => c.notNull())
    .addColumn('tipping_enabled', 'boolean', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();

  // One row per tipped question; every command on a tip locks its row first (see tips/commands.ts).
  await db.schema
    .createTable('tips')
    .addColumn('question_id', 'uuid', (c) => c.primaryKey())
    .addColumn('recipient_user_id', 'uuid', (c) => c.notNull())
    .addColumn('asker_user_id', 'uuid')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('payment_ref', 'text', (c) => c.notNull().unique())
    .addColumn('payment_intent_id', 'text', (c) => c.unique())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('application_fee', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('release_reason', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  // Account deletion releases the owner's held tips: found by recipient, only the few still open.
  await sql`CREATE INDEX tips_open_by_recipient ON tips (recipient_user_id) WHERE status IN ('started', 'authorized')`.execute(
    db,
  );

  // The ledger: one row per captured tip — what the asker paid, what the platform kept, what the owner got.
  await db.schema
    .createTable('ledger')
    .addColumn('question_id', 'uuid', (c) => c.primaryKey())
    .addColumn('recipient_user_id', 'uuid', (c) => c.notNull())
    .addColumn('payment_ref', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('application_fee', 'integer', (c) => c.notNull())
    .addColumn('net', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('captured_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // The earnings page reads one owner's entries newest first, and pages through them by (captured_at, question_id).
  await sql`CREATE INDEX ledger_by_recipient ON ledger (recipient_user_id, captured_at DESC, question_id DESC)`.execute(
    db,
  );

  // Provider webhook deliveries, deduplicated by the provider's event id (the primary key).
  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('question_id', 'text')
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .addColumn('deliveries', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('processed_at', 'timestamptz')
    .execute();

  // The local test-mode provider's "provider-side" state (empty and unused when Stripe is configured).
  await db.schema
    .createTable('testmode_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('charges_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('payouts_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('details_submitted', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('return_url', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('testmode_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('application_fee', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('success_url', 'text', (c) => c.notNull())
    .addColumn('cancel_url', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('testmode_payment_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('amount_received', 'integer', (c) => c.notNull())
    .addColumn('application_fee', 'integer', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('metadata', 'jsonb', (c) => c.notNull())
    .addColumn('captured_at', 'timestamptz')
    .addColumn('canceled_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'testmode_payment_intents',
    'testmode_sessions',
    'testmode_accounts',
    'webhook_events',
    'ledger',
    'tips',
    'tip_options',
    'payout_accounts',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
