import { sql, type Kysely } from 'kysely';
import { HANDLE_HOLD_DAYS, HANDLE_MESSAGES } from '@ques/contracts';
import { conflict, handlerProjection } from '@ques/kit';
import type { IdentityDB } from '../../db/schema.js';
import type { UserEvent } from '../domain/user.js';

/*
 * The handles projection (issue 28): `handle_history`, one row per handle a person holds or released. Inline, in the
 * transaction of the append, before the users projection: claiming a handle someone else holds — their current one,
 * or one they released less than 90 days before the event — finds no row to take and throws 409 "That link is taken.",
 * which rolls the whole command back. The primary key serialises two claims of one handle: the second waits for the
 * first to commit, then sees it held. The 90 days count from the events' own times, so a rebuild decides the same.
 */

const HOLD = `${HANDLE_HOLD_DAYS} days`;

/** Makes `handle` the user's current one, if nobody else holds it; otherwise 409. */
async function claim(trx: Kysely<IdentityDB>, handle: string, userId: string, at: string): Promise<void> {
  const taken = await trx
    .insertInto('handle_history')
    .values({ handle, user_id: userId, claimed_at: at, released_at: null })
    .onConflict((oc) =>
      oc
        .column('handle')
        .doUpdateSet({ user_id: userId, claimed_at: at, released_at: null })
        // Their own (taken back, or claimed again) or released long enough ago.
        .where((eb) =>
          eb.or([
            eb('handle_history.user_id', '=', userId),
            eb('handle_history.released_at', '<', sql<Date>`${at}::timestamptz - ${HOLD}::interval`),
          ]),
        ),
    )
    .returning('handle')
    .executeTakeFirst();
  if (!taken) throw conflict(HANDLE_MESSAGES.taken);
}

export const handlesProjection = handlerProjection<IdentityDB, UserEvent>({
  name: 'handles',
  tables: ['handle_history'],
  handlers: {
    UserRegistered: (trx, d) => claim(trx, d.username, d.userId, d.registeredAt),
    UsernameChanged: async (trx, d) => {
      await trx
        .updateTable('handle_history')
        .set({ released_at: d.changedAt })
        .where('handle', '=', d.previousUsername)
        .where('user_id', '=', d.userId)
        .execute();
      await claim(trx, d.username, d.userId, d.changedAt);
    },
    // A deleted account's handles are free at once (nothing of theirs is left to redirect to).
    UserDeleted: (trx, d) => trx.deleteFrom('handle_history').where('user_id', '=', d.userId).execute(),
  },
});

export class HandlesReadModel {
  constructor(private readonly db: Kysely<IdentityDB>) {}

  /** Who holds `handle` now (current, or released less than 90 days ago); undefined: free. */
  async holder(handle: string, now: Date): Promise<{ userId: string; current: boolean } | undefined> {
    const row = await this.db
      .selectFrom('handle_history')
      .select(['user_id', 'released_at'])
      .where('handle', '=', handle)
      .where((eb) => eb.or([eb('released_at', 'is', null), eb('released_at', '>=', sql<Date>`${now.toISOString()}::timestamptz - ${HOLD}::interval`)]))
      .executeTakeFirst();
    return row && { userId: row.user_id, current: row.released_at === null };
  }

  /** The user a released handle now redirects to (while nobody else has taken it). */
  async renamedFrom(handle: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('handle_history')
      .select('user_id')
      .where('handle', '=', handle)
      .where('released_at', 'is not', null)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Of `candidates`, those held (current or recently released) at `now`. */
  async held(candidates: string[], now: Date): Promise<Set<string>> {
    if (candidates.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('handle_history')
      .select('handle')
      .where('handle', 'in', candidates)
      .where((eb) => eb.or([eb('released_at', 'is', null), eb('released_at', '>=', sql<Date>`${now.toISOString()}::timestamptz - ${HOLD}::interval`)]))
      .execute();
    return new Set(rows.map((r) => r.handle));
  }
}
