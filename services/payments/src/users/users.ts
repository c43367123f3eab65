import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { IdentityEvents, userSnapshotHandlers, type EventEnvelope, type UserSnapshot } from '@ques/contracts';
import { AppError, causedBy, ConcurrencyError, upsertLocalCopy, type ConsumerDefinition } from '@ques/kit';
import type { PaymentsDB, UserRow } from '../db/schema.js';
import type { TipCommands } from '../tips/commands.js';
import type { TipsReadModel } from '../tips/read-models/tips.js';

export type { UserRow };

/** Upserts a snapshot unless the row already reflects a newer identity event (late deliveries change nothing). */
async function applySnapshot(trx: Kysely<PaymentsDB>, envelope: EventEnvelope<UserSnapshot>): Promise<void> {
  const d = envelope.data;
  await upsertLocalCopy(trx, 'users', 'user_id', {
    user_id: d.userId,
    username: d.username,
    name: d.name,
    has_email: d.email.trim().length > 0,
    archive_profile: d.archiveProfile,
    deleted: false,
    version: envelope.streamVersion,
    updated_at: envelope.occurredAt,
  });
}

/**
 * `payments--users`: identity's users → the local `users` table. `UserDeleted` erases the name (a tombstone stays
 * so a late snapshot cannot revive it) and releases every tip still held for that owner ("account deleted").
 */
export function usersConsumer(deps: {
  commands: TipCommands;
  tips: TipsReadModel;
  log: Logger;
}): ConsumerDefinition<PaymentsDB> {
  return {
    durable: 'payments--users',
    context: 'identity',
    handlers: {
      ...userSnapshotHandlers(applySnapshot),
      UserDeleted: {
        schema: IdentityEvents.UserDeleted.schema,
        effect: async (trx: Kysely<PaymentsDB>, envelope: EventEnvelope<{ userId: string; deletedAt: string }>) => {
          const { userId } = envelope.data;
          const tombstone = {
            username: '',
            name: '',
            has_email: false,
            archive_profile: false,
            deleted: true,
            version: envelope.streamVersion,
            updated_at: envelope.occurredAt,
          };
          await trx
            .insertInto('users')
            .values({ user_id: userId, ...tombstone })
            .onConflict((oc) => oc.column('user_id').doUpdateSet(tombstone))
            .execute();
          const metadata = causedBy(envelope);
          const now = new Date(envelope.data.deletedAt);
          // Locked one by one in question-id order: nothing else locks several tips, so this cannot deadlock.
          for (const questionId of await deps.tips.openForRecipient(userId, trx)) {
            try {
              await deps.commands.handle(
                questionId,
                { type: 'RequestRelease', data: { reason: 'account_deleted', now } },
                metadata,
                { transaction: trx },
              );
            } catch (err) {
              // Answered (capturing) in the meantime: the owner earned it; nothing to release.
              if (!(err instanceof AppError) || err instanceof ConcurrencyError || err.status !== 409)
                throw err;
            }
          }
          deps.log.info({ userId }, 'deleted account: held tips released');
        },
      },
    },
  };
}

export class UsersReadModel {
  constructor(private readonly db: Kysely<PaymentsDB>) {}

  /** An active user (deleted accounts are not found). */
  async byId(userId: string): Promise<UserRow | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return row && !row.deleted ? row : undefined;
  }

  async isDeleted(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('deleted')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.deleted === true;
  }
}
