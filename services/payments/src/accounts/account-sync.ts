import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock, EventMetadata } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import type { PaymentProvider } from '../providers/provider.js';
import type { PayoutAccountCommands } from './commands.js';
import type { PayoutAccountRow, PayoutAccountsReadModel } from './read-models/payout-accounts.js';

/**
 * Keeps a payout account's status in line with the provider. Webhooks (`account.updated`) and the owner's status
 * check both re-read the account from the provider, so the order they arrive in does not matter.
 */
export class AccountSync {
  constructor(
    private readonly deps: {
      db: Kysely<PaymentsDB>;
      commands: PayoutAccountCommands;
      provider: PaymentProvider;
      accounts: PayoutAccountsReadModel;
      clock: Clock;
      log: Logger;
    },
  ) {}

  async syncByAccountId(
    accountId: string,
    metadata: EventMetadata,
    within?: Kysely<PaymentsDB>,
  ): Promise<PayoutAccountRow | undefined> {
    const work = async (trx: Kysely<PaymentsDB>) => {
      // Locks the owner's row: concurrent syncs of one account are decided one after the other.
      const row = await trx
        .selectFrom('payout_accounts')
        .selectAll()
        .where('account_id', '=', accountId)
        .forUpdate()
        .executeTakeFirst();
      if (!row) {
        this.deps.log.info({ accountId }, 'account update for an account that is not ours: ignored');
        return undefined;
      }
      const flags = await this.deps.provider.retrieveAccount(accountId, trx);
      await this.deps.commands.handle(
        row.user_id,
        { type: 'RecordAccountFlags', data: { ...flags, now: this.deps.clock() } },
        metadata,
        { transaction: trx },
      );
      return this.deps.accounts.byUser(row.user_id, trx);
    };
    return within ? work(within) : this.deps.db.transaction().execute(work);
  }
}
