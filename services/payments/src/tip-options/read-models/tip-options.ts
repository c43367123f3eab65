import type { Kysely } from 'kysely';
import type { Projection, RecordedEvent } from '@ques/kit';
import type { PaymentsDB, TipOptionsRow } from '../../db/schema.js';
import type { TipOptionsEvent } from '../domain/tip-options.js';

export type { TipOptionsRow };

/** Inline projection `tip_options`: the latest saved options per owner (absolute upserts, newer versions only). */
export const tipOptionsProjection: Projection<PaymentsDB> = {
  name: 'tip_options',
  tables: ['tip_options'],
  async apply(trx: Kysely<PaymentsDB>, recorded: RecordedEvent) {
    const e = { type: recorded.type, data: recorded.data } as TipOptionsEvent;
    if (e.type !== 'TipOptionsSaved') return;
    const row = {
      user_id: e.data.userId,
      tip_options: JSON.stringify(e.data.tipOptions),
      tipping_enabled: e.data.tippingEnabled,
      updated_at: e.data.savedAt,
      version: recorded.streamVersion,
    };
    await trx
      .insertInto('tip_options')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('user_id')
          .doUpdateSet({
            tip_options: row.tip_options,
            tipping_enabled: row.tipping_enabled,
            updated_at: row.updated_at,
            version: row.version,
          })
          .where('tip_options.version', '<', row.version),
      )
      .execute();
  },
};

export class TipOptionsReadModel {
  constructor(private readonly db: Kysely<PaymentsDB>) {}

  async byUser(userId: string): Promise<TipOptionsRow | undefined> {
    return this.db.selectFrom('tip_options').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }
}
