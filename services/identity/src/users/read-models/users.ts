import { sql, type Kysely, type Updateable } from 'kysely';
import { handlerProjection, insertRowsAsJson } from '@ques/kit';
import type { PublicProfile, User } from '@ques/contracts';
import type { IdentityDB, UserRow, UsersTable } from '../../db/schema.js';
import type { UserEvent, UserProfile } from '../domain/user.js';

export type { UserRow };

/** The read model's columns of a profile snapshot (what registration and every profile update carry). */
function snapshotColumns(d: UserProfile) {
  return {
    username: d.username,
    name: d.name,
    email: d.email,
    email_verified: d.emailVerified ?? false,
    bio: d.bio,
    avatar_url: d.avatarUrl,
    brand_color_main: d.brandColorMain,
    brand_color_light: d.brandColorLight,
    archive_profile: d.archiveProfile,
  };
}

function registeredRow(d: Extract<UserEvent, { type: 'UserRegistered' }>['data']) {
  return {
    id: d.userId,
    ...snapshotColumns(d),
    password_hash: d.passwordHash,
    created_at: d.registeredAt,
    updated_at: d.registeredAt,
  };
}

const update = (trx: Kysely<IdentityDB>, userId: string, set: Updateable<UsersTable>) =>
  trx.updateTable('users').set(set).where('id', '=', userId).execute();

/** Inline projection: `users`, keyed by user id; idempotent (upserts and absolute updates). */
export const usersProjection = handlerProjection<IdentityDB, UserEvent>({
  name: 'users',
  tables: ['users'],
  handlers: {
    UserRegistered: (trx, d) =>
      trx
        .insertInto('users')
        .values(registeredRow(d))
        .onConflict((oc) => oc.column('id').doNothing())
        .execute(),
    ProfileUpdated: (trx, d) => update(trx, d.userId, { ...snapshotColumns(d), updated_at: d.updatedAt }),
    // The handles projection (handles.ts) ran first and refused a handle someone else holds.
    UsernameChanged: (trx, d) => update(trx, d.userId, { username: d.username, updated_at: d.changedAt }),
    ArchiveStatusChanged: (trx, d) =>
      update(trx, d.userId, { archive_profile: d.archiveProfile, updated_at: d.changedAt }),
    // Only while the address is still the one the link was mailed to (the decider checked it).
    EmailVerified: (trx, d) =>
      trx
        .updateTable('users')
        .set({ email_verified: true, updated_at: d.verifiedAt })
        .where('id', '=', d.userId)
        .where('email', '=', d.email)
        .execute(),
    AvatarChanged: (trx, d) => update(trx, d.userId, { avatar_url: d.avatarUrl, updated_at: d.changedAt }),
    // Nothing personal stays in the read model; the username becomes free again.
    UserDeleted: (trx, d) => trx.deleteFrom('users').where('id', '=', d.userId).execute(),
    PasswordChanged: (trx, d) =>
      update(trx, d.userId, { password_hash: d.passwordHash, updated_at: d.changedAt }),
    // Issue 18: the operator flag and an archive's sources note.
    OperatorGranted: (trx, d) => update(trx, d.userId, { operator: true }),
    OperatorRevoked: (trx, d) => update(trx, d.userId, { operator: false }),
    ArchiveSourcesChanged: (trx, d) => update(trx, d.userId, { archive_sources: d.sources, updated_at: d.changedAt }),
    // An approved claim (ADR 0034): the claimant's address and password, no longer an archive.
    ProfileClaimed: (trx, d) => update(trx, d.userId, { ...snapshotColumns(d), password_hash: d.passwordHash, updated_at: d.claimedAt }),
  },
  /** Rebuilds: runs of registrations go in as one statement (ADR 0026); everything else as `apply` does it. */
  batch: {
    type: 'UserRegistered',
    key: (d) => d.userId,
    row: (d) => registeredRow(d),
    insert: (trx, rows) => insertRowsAsJson(trx, 'users', rows, sql`ON CONFLICT (id) DO NOTHING`),
  },
});

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
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }
  byUsername(username: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('username', '=', username.toLowerCase())
      .executeTakeFirst();
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
}
