import { sql, type Kysely } from 'kysely';
import { handlerProjection, insertRowsAsJson } from '@ques/kit';
import type { PaymentsDB, TipOptionsRow } from '../../db/schema.js';
import type { TipOptionsEvent } from '../domain/tip-options.js';

export type { TipOptionsRow };

/** Inline projection `tip_options`: the latest saved options per owner (absolute upserts, newer versions only). */
export const tipOptionsProjection = handlerProjection<PaymentsDB, TipOptionsEvent>({
  name: 'tip_options',
  tables: ['tip_options'],
  handlers: {
    async TipOptionsSaved(trx, d, event) {
      const row = {
        user_id: d.userId,
        tip_options: JSON.stringify(d.tipOptions),
        tipping_enabled: d.tippingEnabled,
        updated_at: d.savedAt,
        version: event.streamVersion,
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
  },
  /** Rebuilds: the batch's saves as one upsert (a second save of an owner in the run starts the next statement). */
  batch: {
    type: 'TipOptionsSaved',
    key: (d) => d.userId,
    // A jsonb column takes the value itself here (one JSON document for the whole run).
    row: (d, event) => ({
      user_id: d.userId,
      tip_options: d.tipOptions,
      tipping_enabled: d.tippingEnabled,
      updated_at: d.savedAt,
      version: event.streamVersion,
    }),
    insert: (trx, rows) =>
      insertRowsAsJson(
        trx,
        'tip_options',
        rows,
        sql`ON CONFLICT (user_id) DO UPDATE SET tip_options = excluded.tip_options, tipping_enabled = excluded.tipping_enabled,
          updated_at = excluded.updated_at, version = excluded.version WHERE tip_options.version < excluded.version`,
      ),
  },
});

export class TipOptionsReadModel {
  constructor(private readonly db: Kysely<PaymentsDB>) {}

  async byUser(userId: string): Promise<TipOptionsRow | undefined> {
    return this.db.selectFrom('tip_options').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }
}
