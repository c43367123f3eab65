import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock, EventMetadata, EventStore } from '@ques/kit';
import { decideWithin } from '../es.js';
import type { PaymentProvider } from '../providers/provider.js';
import { payoutAccountDecider } from './domain/decide.js';
import { payoutAccountStreamId } from './domain/payout-account.js';
import type { PayoutAccountRow, PayoutAccountsReadModel } from './read-models/payout-accounts.js';

/**
 * Keeps a payout account's status in line with the provider. Webhooks (`account.updated`) and the owner's status
 * check both re-read the account from the provider, so the order they arrive in does not matter.
 */
export class AccountSync {
  constructor(
    private readonly deps: {
      store: EventStore;
      provider: PaymentProvider;
      accounts: PayoutAccountsReadModel;
      clock: Clock;
      log: Logger;
    },
  ) {}

  async syncByAccountId(
    accountId: string,
    metadata: EventMetadata,
    within?: Kysely<any>,
  ): Promise<PayoutAccountRow | undefined> {
    const work = async (trx: Kysely<any>) => {
      // Locks the owner's row: concurrent syncs of one account are decided one after the other.
      const row = (await trx
        .selectFrom('payout_accounts')
        .selectAll()
        .where('account_id', '=', accountId)
        .forUpdate()
        .executeTakeFirst()) as PayoutAccountRow | undefined;
      if (!row) {
        this.deps.log.info({ accountId }, 'account update for an account that is not ours: ignored');
        return undefined;
      }
      const flags = await this.deps.provider.retrieveAccount(accountId, trx);
      await decideWithin(
        this.deps.store,
        trx,
        payoutAccountStreamId(row.user_id),
        payoutAccountDecider,
        { type: 'RecordAccountFlags', data: { ...flags, now: this.deps.clock() } },
        metadata,
      );
      return this.deps.accounts.byUser(row.user_id, trx);
    };
    return within ? work(within) : this.deps.store.db.transaction().execute(work);
  }
}
