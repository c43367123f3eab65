import type { Kysely } from 'kysely';
import type { Projection, RecordedEvent } from '@ques/kit';
import type { PaymentsDB, PayoutAccountRow } from '../../db/schema.js';
import type { PayoutAccountEvent } from '../domain/payout-account.js';

export type { PayoutAccountRow };

/** Inline projection `payout_accounts`: one row per owner; idempotent (insert once, then only newer versions). */
export const payoutAccountsProjection: Projection<PaymentsDB> = {
  name: 'payout_accounts',
  tables: ['payout_accounts'],
  async apply(trx: Kysely<PaymentsDB>, recorded: RecordedEvent) {
    const e = { type: recorded.type, data: recorded.data } as PayoutAccountEvent;
    switch (e.type) {
      case 'PayoutAccountLinked':
        await trx
          .insertInto('payout_accounts')
          .values({
            user_id: e.data.userId,
            account_id: e.data.accountId,
            country: e.data.country,
            status: 'pending',
            charges_enabled: false,
            payouts_enabled: false,
            details_submitted: false,
            updated_at: e.data.linkedAt,
            version: recorded.streamVersion,
          })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .execute();
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
