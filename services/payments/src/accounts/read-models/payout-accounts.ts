import { sql, type Kysely } from 'kysely';
import { batchedApply, insertRowsAsJson, type Projection, type RecordedEvent } from '@ques/kit';
import type { PaymentsDB, PayoutAccountRow } from '../../db/schema.js';
import type { PayoutAccountEvent } from '../domain/payout-account.js';

export type { PayoutAccountRow };

type Linked = Extract<PayoutAccountEvent, { type: 'PayoutAccountLinked' }>['data'];

function linkedRow(d: Linked, version: number) {
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
export const payoutAccountsProjection: Projection<PaymentsDB> = {
  name: 'payout_accounts',
  tables: ['payout_accounts'],
  /** Rebuilds: runs of new links as one statement (ADR 0026); status changes as `apply` does them. */
  applyBatch: batchedApply<PaymentsDB>({
    relevant: (event) => event.type === 'PayoutAccountLinked' || event.type === 'PayoutAccountStatusChanged',
    rowOf: (event) =>
      event.type === 'PayoutAccountLinked' ? { key: (event.data as Linked).userId, row: linkedRow(event.data as Linked, event.streamVersion) } : null,
    insert: (trx, rows) => insertRowsAsJson(trx, 'payout_accounts', rows, sql`ON CONFLICT (user_id) DO NOTHING`),
    apply: (trx, event) => payoutAccountsProjection.apply(trx, event),
  }),
  async apply(trx: Kysely<PaymentsDB>, recorded: RecordedEvent) {
    const e = { type: recorded.type, data: recorded.data } as PayoutAccountEvent;
    switch (e.type) {
      case 'PayoutAccountLinked':
        await trx.insertInto('payout_accounts').values(linkedRow(e.data, recorded.streamVersion)).onConflict((oc) => oc.column('user_id').doNothing()).execute();
        return;
      case 'PayoutAccountStatusChanged':
        await trx
          .updateTable('payout_accounts')
          .set({
            status: e.data.status,
            charges_enabled: e.data.chargesEnabled,
            payouts_enabled: e.data.payoutsEnabled,
            details_submitted: e.data.detailsSubmitted,
            updated_at: e.data.changedAt,
            version: recorded.streamVersion,
          })
          .where('user_id', '=', e.data.userId)
          .where('version', '<', recorded.streamVersion)
          .execute();
        return;
      default:
        // Not a payout account event (the projection sees every event of the service).
        return;
    }
  },
};

export class PayoutAccountsReadModel {
  constructor(private readonly db: Kysely<PaymentsDB>) {}

  async byUser(userId: string, executor: Kysely<PaymentsDB> = this.db): Promise<PayoutAccountRow | undefined> {
    return executor.selectFrom('payout_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async byAccountId(
    accountId: string,
    executor: Kysely<PaymentsDB> = this.db,
  ): Promise<PayoutAccountRow | undefined> {
    return executor.selectFrom('payout_accounts').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  }
}
