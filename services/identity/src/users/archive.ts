import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { usernameFromName, ZSignupRequest, ZUsername } from '@ques/contracts';
import { badRequest, conflict, notFound } from '@ques/kit';
import { hashPassword } from '../sessions/passwords.js';
import { avatarUrl, encodeAvatar, type AvatarStore } from './avatars.js';
import type { UserCommands } from './commands.js';
import type { UsersReadModel } from './read-models/users.js';

/** What the archive functions use of identity's parts. */
export interface ArchiveParts {
  commands: UserCommands;
  users: UsersReadModel;
  avatars: AvatarStore;
}

const metadata = { correlationId: `admin-cli-${randomUUID()}`, causationId: null, actor: 'admin-cli' };

export interface CreateArchiveInput {
  name: string;
  /** Derived from the name when not given. */
  username?: string;
  bio?: string;
  /** The curator's login e-mail: they sign in (after a password reset, or with `password`) to curate the archive. */
  email: string;
  password?: string;
  /** Path to an image file for the avatar. */
  avatarPath?: string;
}

/**
 * Admin: creates a non-affiliated curated archive profile. It shows `archiveProfile: true` publicly, cannot be asked
 * or tipped, and its curator adds Q&A with a source note.
 */
export async function createArchiveProfile(parts: ArchiveParts, input: CreateArchiveInput): Promise<{ userId: string; username: string }> {
  const { commands, users } = parts;
  const parsed = ZSignupRequest.parse({ name: input.name, email: input.email, password: input.password ?? randomBytes(24).toString('base64url'), username: input.username });
  const username = ZUsername.parse(parsed.username ?? usernameFromName(parsed.name));
  if (await users.byUsername(username)) throw conflict(`The username ${username} is taken.`);
  if (await users.byEmail(parsed.email)) throw conflict('An account with this email already exists.');
  const userId = randomUUID();
  const now = new Date();
  await commands.handle(
    userId,
    {
      type: 'RegisterUser',
      data: { userId, username, name: parsed.name, email: parsed.email, passwordHash: await hashPassword(parsed.password), now, bio: input.bio ?? '', archiveProfile: true },
    },
    metadata,
  );
  if (input.avatarPath) await setAvatarFromFile(parts, userId, input.avatarPath);
  return { userId, username };
}

/** Admin: marks (or unmarks) an existing profile as an archive. */
export async function markArchiveProfile(parts: ArchiveParts, username: string, archiveProfile: boolean): Promise<string> {
  const row = await parts.users.byUsername(username);
  if (!row) throw notFound(`No profile with username ${username}`);
  await parts.commands.handle(row.id, { type: 'SetArchiveProfile', data: { archiveProfile, now: new Date() } }, metadata);
  return row.id;
}

async function setAvatarFromFile(parts: ArchiveParts, userId: string, path: string): Promise<void> {
  const encoded = await encodeAvatar(await readFile(path)).catch((err: unknown) => {
    throw badRequest(`The avatar ${path} could not be used: ${err instanceof Error ? err.message : 'unreadable'}`);
  });
  const now = new Date();
  await parts.commands.handle(userId, { type: 'ChangeAvatar', data: { avatarUrl: avatarUrl(userId, encoded.version), now } }, metadata, {
    alongside: (trx) => parts.avatars.replace(trx, userId, encoded, now),
  });
}
