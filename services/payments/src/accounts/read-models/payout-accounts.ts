import { sql, type Kysely } from 'kysely';
import { handlerProjection, insertRowsAsJson } from '@ques/kit';
import type { PaymentsDB, PayoutAccountRow } from '../../db/schema.js';
import type { PayoutAccountEvent } from '../domain/payout-account.js';

export type { PayoutAccountRow };

function linkedRow(d: Extract<PayoutAccountEvent, { type: 'PayoutAccountLinked' }>['data'], version: number) {
  return {
    user_id: d.userId,
    account_id: d.accountId,
    country: d.country,
    status: 'pending' as const,
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    updated_at: d.linkedAt,
    version,
  };
}

/** Inline projection `payout_accounts`: one row per owner; idempotent (insert once, then only newer versions). */
export const payoutAccountsProjection = handlerProjection<PaymentsDB, PayoutAccountEvent>({
  name: 'payout_accounts',
  tables: ['payout_accounts'],
  handlers: {
    PayoutAccountLinked: (trx, d, event) =>
      trx
        .insertInto('payout_accounts')
        .values(linkedRow(d, event.streamVersion))
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute(),
    PayoutAccountStatusChanged: (trx, d, event) =>
      trx
        .updateTable('payout_accounts')
        .set({
          status: d.status,
          charges_enabled: d.chargesEnabled,
          payouts_enabled: d.payoutsEnabled,
          details_submitted: d.detailsSubmitted,
          updated_at: d.changedAt,
          version: event.streamVersion,
        })
        .where('user_id', '=', d.userId)
        .where('version', '<', event.streamVersion)
        .execute(),
  },
  /** Rebuilds: runs of new links as one statement (ADR 0026); status changes as `apply` does them. */
  batch: {
    type: 'PayoutAccountLinked',
    key: (d) => d.userId,
    row: (d, event) => linkedRow(d, event.streamVersion),
    insert: (trx, rows) =>
      insertRowsAsJson(trx, 'payout_accounts', rows, sql`ON CONFLICT (user_id) DO NOTHING`),
  },
});

export class PayoutAccountsReadModel {
  constructor(private readonly db: Kysely<PaymentsDB>) {}

  async byUser(
    userId: string,
    executor: Kysely<PaymentsDB> = this.db,
  ): Promise<PayoutAccountRow | undefined> {
    return executor
      .selectFrom('payout_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async byAccountId(
    accountId: string,
    executor: Kysely<PaymentsDB> = this.db,
  ): Promise<PayoutAccountRow | undefined> {
    return executor
      .selectFrom('payout_accounts')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }
}
