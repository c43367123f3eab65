import { sql, type Kysely } from 'kysely';
import { batchedApply, insertRowsAsJson, type Projection, type RecordedEvent } from '@ques/kit';
import type { PaymentsDB, TipOptionsRow } from '../../db/schema.js';
import type { TipOptionsEvent } from '../domain/tip-options.js';

export type { TipOptionsRow };

type Saved = Extract<TipOptionsEvent, { type: 'TipOptionsSaved' }>['data'];

/** Inline projection `tip_options`: the latest saved options per owner (absolute upserts, newer versions only). */
export const tipOptionsProjection: Projection<PaymentsDB> = {
  name: 'tip_options',
  tables: ['tip_options'],
  /** Rebuilds: the batch's saves as one upsert (a second save of an owner in the run starts the next statement). */
  applyBatch: batchedApply<PaymentsDB>({
    relevant: (event) => event.type === 'TipOptionsSaved',
    rowOf: (event) => {
      const d = (event.data as Saved);
      return {
        key: d.userId,
        // A jsonb column takes the value itself here (one JSON document for the whole run).
        row: { user_id: d.userId, tip_options: d.tipOptions, tipping_enabled: d.tippingEnabled, updated_at: d.savedAt, version: event.streamVersion },
      };
    },
    insert: (trx, rows) =>
      insertRowsAsJson(
        trx,
        'tip_options',
        rows,
        sql`ON CONFLICT (user_id) DO UPDATE SET tip_options = excluded.tip_options, tipping_enabled = excluded.tipping_enabled,
          updated_at = excluded.updated_at, version = excluded.version WHERE tip_options.version < excluded.version`,
      ),
    apply: (trx, event) => tipOptionsProjection.apply(trx, event),
  }),
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
