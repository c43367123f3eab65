import { sql, type Kysely, type Updateable } from 'kysely';
import { batchedApply, insertRowsAsJson, type Projection, type RecordedEvent } from '@ques/kit';
import type { PublicProfile, User } from '@ques/contracts';
import type { IdentityDB, UserRow, UsersTable } from '../../db/schema.js';
import type { UserEvent } from '../domain/user.js';

export type { UserRow };

type Registered = Extract<UserEvent, { type: 'UserRegistered' }>['data'];

function registeredRow(d: Registered) {
  return {
    id: d.userId,
    username: d.username,
    name: d.name,
    email: d.email,
    email_verified: d.emailVerified ?? false,
    bio: d.bio,
    avatar_url: d.avatarUrl,
    brand_color_main: d.brandColorMain,
    brand_color_light: d.brandColorLight,
    archive_profile: d.archiveProfile,
    password_hash: d.passwordHash,
    created_at: d.registeredAt,
    updated_at: d.registeredAt,
  };
}

const USER_EVENTS = new Set<string>([
  'UserRegistered',
  'ProfileUpdated',
  'ArchiveStatusChanged',
  'EmailVerified',
  'AvatarChanged',
  'UserDeleted',
  'PasswordChanged',
  'OperatorGranted',
  'OperatorRevoked',
  'ArchiveSourcesChanged',
]);

/** Inline projection: `users`, keyed by user id; idempotent (upserts and absolute updates). */
export const usersProjection: Projection<IdentityDB> = {
  name: 'users',
  tables: ['users'],
  /** Rebuilds: runs of registrations go in as one statement (ADR 0026); everything else as `apply` does it. */
  applyBatch: batchedApply<IdentityDB>({
    relevant: (event) => USER_EVENTS.has(event.type),
    rowOf: (event) =>
      event.type === 'UserRegistered' ? { key: (event.data as Registered).userId, row: registeredRow(event.data as Registered) } : null,
    insert: (trx, rows) => insertRowsAsJson(trx, 'users', rows, sql`ON CONFLICT (id) DO NOTHING`),
    apply: (trx, event) => usersProjection.apply(trx, event),
  }),
  async apply(trx: Kysely<IdentityDB>, recorded: RecordedEvent) {
    const event = recorded as unknown as RecordedEvent<UserEvent>;
    const e = { type: event.type, data: event.data } as UserEvent;
    const update = (userId: string, set: Updateable<UsersTable>) =>
      trx.updateTable('users').set(set).where('id', '=', userId).execute();
    switch (e.type) {
      case 'UserRegistered':
        await trx.insertInto('users').values(registeredRow(e.data)).onConflict((oc) => oc.column('id').doNothing()).execute();
        return;
      case 'ProfileUpdated': {
        const d = e.data;
        await update(d.userId, {
          username: d.username,
          name: d.name,
          email: d.email,
          email_verified: d.emailVerified ?? false,
          bio: d.bio,
          avatar_url: d.avatarUrl,
          brand_color_main: d.brandColorMain,
          brand_color_light: d.brandColorLight,
          archive_profile: d.archiveProfile,
          updated_at: d.updatedAt,
        });
        return;
      }
      case 'ArchiveStatusChanged':
        await update(e.data.userId, { archive_profile: e.data.archiveProfile, updated_at: e.data.changedAt });
        return;
      case 'EmailVerified':
        // Only while the address is still the one the link was mailed to (the decider checked it).
        await trx
          .updateTable('users')
          .set({ email_verified: true, updated_at: e.data.verifiedAt })
          .where('id', '=', e.data.userId)
          .where('email', '=', e.data.email)
          .execute();
        return;
      case 'AvatarChanged':
        await update(e.data.userId, { avatar_url: e.data.avatarUrl, updated_at: e.data.changedAt });
        return;
      case 'UserDeleted':
        // Nothing personal stays in the read model; the username becomes free again.
        await trx.deleteFrom('users').where('id', '=', e.data.userId).execute();
        return;
      case 'PasswordChanged':
        await update(e.data.userId, { password_hash: e.data.passwordHash, updated_at: e.data.changedAt });
        return;
      case 'OperatorGranted':
        await update(e.data.userId, { operator: true });
        return;
      case 'OperatorRevoked':
        await update(e.data.userId, { operator: false });
        return;
      case 'ArchiveSourcesChanged':
        await update(e.data.userId, { archive_sources: e.data.sources, updated_at: e.data.changedAt });
        return;
      default: {
        const unknown: never = e;
        return unknown;
      }
    }
  },
};

export function toUser(row: UserRow): User {
  return {
    _id: row.id,
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    emailVerified: row.email_verified,
    bio: row.bio,
    avatarUrl: row.avatar_url,
    brandColorMain: row.brand_color_main,
    brandColorLight: row.brand_color_light,
    archiveProfile: row.archive_profile,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export function toPublicProfile(row: UserRow): PublicProfile {
  return {
    _id: row.id,
    id: row.id,
    username: row.username,
    name: row.name,
    bio: row.bio,
    avatarUrl: row.avatar_url,
    brandColorMain: row.brand_color_main,
    brandColorLight: row.brand_color_light,
    archiveProfile: row.archive_profile,
  };
}

export class UsersReadModel {
  constructor(private readonly db: Kysely<IdentityDB>) {}

  byId(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }
  byEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }
  byUsername(username: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('username', '=', username.toLowerCase()).executeTakeFirst();
  }
  /** Archive profiles (and profiles that were marked one), for the console (issue 18). */
  archives(): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('archive_profile', '=', true), eb('archive_sources', '!=', '')]))
      .orderBy('name')
      .execute();
  }
  /** The platform operators (issue 18). */
  operators(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('operator', '=', true).orderBy('username').execute();
  }
  /** Usernames equal to `base` or `base-<n>`, to pick the next free one. */
  async usernamesLike(base: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('users')
      .select('username')
      .where((eb) => eb.or([eb('username', '=', base), eb('username', 'like', `${base.replace(/[\\%_]/g, '\\$&')}-%`)]))
      .execute();
    return new Set(rows.map((r) => r.username));
  }
}
