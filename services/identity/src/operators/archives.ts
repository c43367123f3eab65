import { randomBytes, randomUUID } from 'node:crypto';
import { OPS_MESSAGES, type ArchiveProfile } from '@ques/contracts';
import { conflict, isUniqueViolation, notFound, recordOperatorAct, type AccessClaims, type EventMetadata, type EventStore } from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import { hashPassword } from '../sessions/passwords.js';
import { avatarUrl, encodeAvatar, type AvatarStore } from '../users/avatars.js';
import type { UserCommands } from '../users/commands.js';
import type { UserRow, UsersReadModel } from '../users/read-models/users.js';
import { usernameFromName } from '@ques/contracts';

export interface ArchiveConsoleParts {
  store: EventStore<IdentityDB>;
  commands: UserCommands;
  users: UsersReadModel;
  avatars: AvatarStore;
}

export const toArchive = (row: UserRow): ArchiveProfile => ({
  id: row.id,
  username: row.username,
  name: row.name,
  bio: row.bio,
  avatarUrl: row.avatar_url,
  archiveProfile: row.archive_profile,
  sources: row.archive_sources,
});

/**
 * Archive profiles from the operator console (issue 18): the same user aggregate and commands as the CLI
 * (`RegisterUser` with `archiveProfile`, `UpdateProfile`, `SetArchiveProfile`) plus the sources note; each action
 * recorded with its operator in the same transaction.
 */
export class ArchiveConsole {
  constructor(private readonly parts: ArchiveConsoleParts) {}

  async list(): Promise<ArchiveProfile[]> {
    return (await this.parts.users.archives()).map(toArchive);
  }

  private async row(id: string): Promise<UserRow> {
    const row = await this.parts.users.byId(id);
    if (!row || (!row.archive_profile && !row.archive_sources)) throw notFound(OPS_MESSAGES.noSuchArchive);
    return row;
  }

  async create(op: AccessClaims, input: { name: string; username?: string; bio: string; sources: string }, metadata: EventMetadata): Promise<ArchiveProfile> {
    const { commands, users, store } = this.parts;
    const username = input.username ?? (usernameFromName(input.name) || `archive-${randomUUID().slice(0, 8)}`);
    if (await users.byUsername(username)) throw conflict(OPS_MESSAGES.usernameTaken);
    const userId = randomUUID();
    const now = new Date();
    // Nobody signs in to an archive: an address that cannot receive mail and a password nobody knows, until a claim
    // is approved and the claimant's own credentials take over.
    const email = `archive-${userId}@archive.invalid`;
    const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
    try {
      await commands.handle(
        userId,
        { type: 'RegisterUser', data: { userId, username, name: input.name, email, passwordHash, now, bio: input.bio, archiveProfile: true } },
        metadata,
        {
          alongside: async (trx) => {
            if (input.sources) await commands.handle(userId, { type: 'SetArchiveSources', data: { sources: input.sources, now } }, metadata, { transaction: trx });
            await recordOperatorAct(store, trx, op, { action: 'archive.create', subject: `user:${userId}`, summary: `Created the archive profile @${username}` }, metadata);
          },
        },
      );
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_unique')) throw conflict(OPS_MESSAGES.usernameTaken);
      throw error;
    }
    return toArchive((await users.byId(userId))!);
  }

  async update(op: AccessClaims, id: string, input: { name?: string; bio?: string; sources?: string }, metadata: EventMetadata): Promise<ArchiveProfile> {
    const { commands, users, store } = this.parts;
    const row = await this.row(id);
    const now = new Date();
    await store.db.transaction().execute(async (trx) => {
      const changes = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.bio !== undefined ? { bio: input.bio } : {}) };
      const a = await commands.handle(id, { type: 'UpdateProfile', data: { changes, now } }, metadata, { transaction: trx });
      const b = input.sources === undefined ? { events: [] } : await commands.handle(id, { type: 'SetArchiveSources', data: { sources: input.sources, now } }, metadata, { transaction: trx });
      if (a.events.length + b.events.length > 0)
        await recordOperatorAct<IdentityDB>(store, trx, op, { action: 'archive.edit', subject: `user:${id}`, summary: `Edited the archive profile @${row.username}` }, metadata);
    });
    return toArchive((await users.byId(id))!);
  }

  /**
   * The archive's avatar (issue 18): the owner's upload path (`encodeAvatar`, the `avatars` table, `ChangeAvatar`) —
   * the same 2 MB limit, sniffing and re-encoding — with the operator's audit record in the same transaction.
   */
  async changeAvatar(op: AccessClaims, id: string, upload: Buffer, metadata: EventMetadata): Promise<ArchiveProfile> {
    const { commands, users, store, avatars } = this.parts;
    const row = await this.row(id);
    const encoded = await encodeAvatar(upload);
    const now = new Date();
    await commands.handle(id, { type: 'ChangeAvatar', data: { avatarUrl: avatarUrl(id, encoded.version), now } }, metadata, {
      alongside: async (trx) => {
        await avatars.replace(trx, id, encoded, now);
        await recordOperatorAct(store, trx, op, { action: 'archive.avatar', subject: `user:${id}`, summary: `Changed the avatar of the archive profile @${row.username}` }, metadata);
      },
    });
    return toArchive((await users.byId(id))!);
  }

  async mark(op: AccessClaims, id: string, archive: boolean, metadata: EventMetadata): Promise<ArchiveProfile> {
    const { commands, users, store } = this.parts;
    const row = await users.byId(id);
    if (!row) throw notFound(OPS_MESSAGES.noSuchArchive);
    // Four eyes (ADR 0054): an account someone ever signed in to is a person's, never a claimable archive.
    if (archive && !row.archive_profile && (await this.signedInEver(id))) throw conflict(OPS_MESSAGES.realAccount);
    await commands.handle(id, { type: 'SetArchiveProfile', data: { archiveProfile: archive, now: new Date(), archiveOriginOnly: true } }, metadata, {
      alongside: async (trx, { events }) => {
        if (events.length === 0) return;
        await recordOperatorAct(store, trx, op, { action: archive ? 'archive.mark' : 'archive.unmark', subject: `user:${id}`, summary: `${archive ? 'Marked' : 'Unmarked'} @${row.username} as an archive profile` }, metadata);
      },
    });
    return toArchive((await users.byId(id))!);
  }

  private async signedInEver(userId: string): Promise<boolean> {
    const row = await this.parts.store.db.selectFrom('session_families').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst();
    return !!row;
  }
}
