import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import { IdentityEvents, userSnapshotHandlers, type EventEnvelope, type ZUserSnapshot } from '@ques/contracts';
import { upsertLocalCopy, type ConsumerDefinition, type PersonalDataVault, type Projection, type RecordedEvent } from '@ques/kit';
import type { QuestionsDB, RecipientRow } from '../db/schema.js';

export type { RecipientRow };

/**
 * Upserts a user snapshot unless the row already reflects a newer identity event: redelivered and late events
 * leave the row as it is (the consumer's processed-event marker already stops exact duplicates).
 */
async function applySnapshot(trx: Kysely<QuestionsDB>, envelope: EventEnvelope<z.output<typeof ZUserSnapshot>>): Promise<void> {
  forgetSeen(trx);
  const d = envelope.data;
  const before = await trx.selectFrom('recipients').select('username').where('user_id', '=', d.userId).executeTakeFirst();
  await upsertLocalCopy(trx, 'recipients', 'user_id', {
    user_id: d.userId,
    username: d.username,
    name: d.name,
    email: d.email.toLowerCase(),
    // Identity resets it to false when the address changes: a guest's questions follow only a proven address.
    email_verified: d.emailVerified,
    archive_profile: d.archiveProfile,
    avatar_url: d.avatarUrl,
    brand_color_main: d.brandColorMain,
    brand_color_light: d.brandColorLight,
    deleted: false,
    version: envelope.streamVersion,
    updated_at: envelope.occurredAt,
  });
  // A new public handle (issue 28): the questions to and from them follow (public list, sitemap, feeds, inbox).
  if (before && before.username !== d.username) await followHandle(trx, [d.userId]);
}

/**
 * Sets the questions of these people to their current handle (recipients'): as recipient (`to_username`) and as a
 * signed-in asker (`from_username`). Run when identity renames someone, and after a question event recorded under an
 * earlier handle is projected (a late event, a rebuild).
 */
export async function followHandle(trx: Kysely<QuestionsDB>, userIds: string[]): Promise<void> {
  await sql`UPDATE questions q SET to_username = r.username FROM recipients r
    WHERE r.user_id = q.to_user_id AND r.user_id IN (${sql.join(userIds)}) AND NOT r.deleted AND q.to_username <> r.username`.execute(trx);
  await sql`UPDATE questions q SET from_username = r.username FROM recipients r
    WHERE r.user_id = q.asker_user_id AND r.user_id IN (${sql.join(userIds)}) AND NOT r.deleted AND q.from_username <> r.username`.execute(trx);
}

/** A new avatar; a late one (older than the row) is ignored like a late snapshot. */
async function applyAvatar(trx: Kysely<QuestionsDB>, envelope: EventEnvelope<{ userId: string; avatarUrl: string }>): Promise<void> {
  await trx
    .updateTable('recipients')
    .set({ avatar_url: envelope.data.avatarUrl, version: envelope.streamVersion })
    .where('user_id', '=', envelope.data.userId)
    .where('deleted', '=', false)
    .where('version', '<', envelope.streamVersion)
    .execute();
}

/** A deleted account keeps a tombstone (so a late ProfileUpdated cannot revive it) with its personal data erased. */
async function applyDeleted(trx: Kysely<QuestionsDB>, envelope: EventEnvelope<{ userId: string }>, vault: PersonalDataVault): Promise<void> {
  forgetSeen(trx);
  const tombstone = {
    username: '',
    name: '',
    email: '',
    email_verified: false,
    archive_profile: false,
    avatar_url: '',
    brand_color_main: '',
    brand_color_light: '',
    deleted: true,
    version: envelope.streamVersion,
    updated_at: envelope.occurredAt,
  };
  await trx
    .insertInto('recipients')
    .values({ user_id: envelope.data.userId, ...tombstone })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(tombstone))
    .execute();
  await eraseDeletedUser(trx, envelope.data.userId);
  // Their name and e-mail in this service's event stream become unreadable (ADR 0010).
  await vault.forget(trx, envelope.data.userId);
}

/**
 * What a deleted account leaves behind here: the questions addressed to them disappear (their public page and
 * answers are gone), and on the questions they asked, their name and e-mail are erased.
 */
export async function eraseDeletedUser(trx: Kysely<QuestionsDB>, userId: string): Promise<void> {
  await trx.deleteFrom('questions').where('to_user_id', '=', userId).execute();
  await trx
    .updateTable('questions')
    .set({ asked_name: 'Deleted user', asked_email: null, from_username: 'guest', asker_user_id: null })
    .where('asker_user_id', '=', userId)
    .execute();
}

/** The accounts a new question involves (its recipient and a signed-in asker). */
function peopleIn(recorded: RecordedEvent): string[] {
  if (!['QuestionAsked', 'QuestionCurated', 'TippedQuestionSubmitted'].includes(recorded.type)) return [];
  const data = recorded.data as { recipient?: { userId?: string }; asker?: { userId?: string | null } };
  return [data.recipient?.userId, data.asker?.userId].filter((id): id is string => typeof id === 'string');
}

/** The handles a new question event names its people by (user id → handle). */
function namesIn(recorded: RecordedEvent): Map<string, string> {
  const data = recorded.data as { recipient?: { userId?: string; username?: string }; asker?: { userId?: string | null; username?: string } };
  const names = new Map<string, string>();
  for (const party of [data.recipient, data.asker])
    if (typeof party?.userId === 'string' && typeof party.username === 'string') names.set(party.userId, party.username);
  return names;
}

/**
 * Runs after the questions projection: a question recorded for (or by) someone already deleted — a late tipped
 * question, or any question during a projection rebuild — is erased as soon as its row is written.
 */
export const deletedUsersProjection: Projection<QuestionsDB> = {
  name: 'deleted-users',
  tables: [],
  /** Rebuilds: one lookup of deleted people for the whole run of events. */
  async applyBatch(trx: Kysely<QuestionsDB>, events: RecordedEvent[]) {
    const ids = new Set<string>();
    for (const recorded of events) for (const id of peopleIn(recorded)) ids.add(id);
    if (ids.size === 0) return;
    const deleted = await trx.selectFrom('recipients').select('user_id').where('user_id', 'in', [...ids]).where('deleted', '=', true).execute();
    for (const row of deleted) await eraseDeletedUser(trx, row.user_id);
    // Questions recorded under a handle renamed since (issue 28) take the current one.
    await followHandle(trx, [...ids]);
  },
  async apply(trx: Kysely<QuestionsDB>, recorded: RecordedEvent) {
    const ids = peopleIn(recorded);
    if (ids.length === 0) return;
    // The people's rows as a whole: the new question's side effects (the owner's verified address) read them from
    // here instead of reading the recipients again in the same transaction (ADR 0042).
    const rows = await trx
      .selectFrom('recipients')
      .select(['user_id', 'deleted', 'email', 'email_verified', 'username', 'brand_color_main', 'brand_color_light'])
      .where('user_id', 'in', ids)
      .execute();
    const seen = new Map<string, PersonSeen | null>(ids.map((id) => [id, null]));
    for (const row of rows) seen.set(row.user_id, row);
    seenIn.set(trx, seen);
    for (const row of rows) if (row.deleted) await eraseDeletedUser(trx, row.user_id);
    // Recorded under a handle renamed since (issue 28; rare: a tipped question paid across a rename).
    const named = namesIn(recorded);
    if (rows.some((row) => !row.deleted && named.has(row.user_id) && named.get(row.user_id) !== row.username)) await followHandle(trx, ids);
  },
};

type PersonSeen = Pick<RecipientRow, 'user_id' | 'deleted' | 'email' | 'email_verified' | 'username' | 'brand_color_main' | 'brand_color_light'>;

/**
 * The rows the deleted-users projection read for the event just appended in a transaction, until its side effects
 * take them (`takeSeenPerson`). Null: no such account here. Keyed by the transaction's handle, which the event store
 * passes unchanged from the append to the projections to the side effects; nothing between them writes recipients.
 */
const seenIn = new WeakMap<Kysely<QuestionsDB>, Map<string, PersonSeen | null>>();

/** What the projection saw of `userId` in this transaction's last append (and forgets it); undefined: not read. */
export function takeSeenPerson(trx: Kysely<QuestionsDB>, userId: string): PersonSeen | null | undefined {
  const seen = seenIn.get(trx);
  if (!seen?.has(userId)) return undefined;
  const person = seen.get(userId)!;
  seen.delete(userId);
  return person;
}

/** Forgets what was seen in `trx` (its recipients rows change). */
function forgetSeen(trx: Kysely<QuestionsDB>): void {
  seenIn.delete(trx);
}

/** `questions--recipients`: identity's user events → the local `recipients` table. */
export function recipientsConsumer(vault: PersonalDataVault): ConsumerDefinition<QuestionsDB> {
  return {
    durable: 'questions--recipients',
    context: 'identity',
    handlers: {
      ...userSnapshotHandlers(applySnapshot),
      // The status page shows the owner's avatar (issue 28); identity publishes a new one only as this event.
      AvatarChanged: {
        schema: IdentityEvents.AvatarChanged.schema,
        effect: (trx, envelope: EventEnvelope<{ userId: string; avatarUrl: string }>) => applyAvatar(trx, envelope),
      },
      UserDeleted: { schema: z.object({ userId: z.uuid() }), effect: (trx, envelope: EventEnvelope<{ userId: string }>) => applyDeleted(trx, envelope, vault) },
    },
  };
}

export class RecipientsReadModel {
  constructor(private readonly db: Kysely<QuestionsDB>) {}

  /** An active user (deleted accounts are not found). */
  async byId(userId: string): Promise<RecipientRow | undefined> {
    const row = await this.db.selectFrom('recipients').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return row && !row.deleted ? row : undefined;
  }

  /** A person's e-mail, once identity verified it (an unproven address blocks nobody else), lowercased; else null. */
  async verifiedEmail(userId: string): Promise<string | null> {
    const row = await this.byId(userId);
    return row?.email_verified && row.email ? row.email.toLowerCase() : null;
  }
}
