import type { Kysely } from 'kysely';
import type { ClaimMethod, ClaimStatus, OpsProfileClaim, ProfileClaim } from '@ques/contracts';
import { handlerProjection } from '@ques/kit';
import type { IdentityDB } from '../db/schema.js';
import type { UserEvent } from '../users/domain/user.js';
import type { ProfileClaimEvent } from './domain.js';

/**
 * `profile_claims` (frozen migration 0005): one row per claim, kept by its events. A claimant's account that ends
 * takes its undecided and rejected claims with it; a profile that ends takes every claim of it.
 */
export const profileClaimsProjection = handlerProjection<
  IdentityDB,
  ProfileClaimEvent | Extract<UserEvent, { type: 'UserDeleted' }>
>({
  name: 'profile_claims',
  tables: ['profile_claims'],
  handlers: {
    ProfileClaimSubmitted: (trx, d) =>
      trx
        .insertInto('profile_claims')
        .values({
          id: d.claimId,
          profile_id: d.userId,
          claimant_id: d.claimantId,
          method: d.method,
          evidence: d.evidence,
          note: d.note,
          status: 'pending',
          reason: null,
          decided_by: null,
          created_at: d.submittedAt,
          decided_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute(),
    ProfileClaimFirstApproval: (trx, d) =>
      trx
        .updateTable('profile_claims')
        .set({ first_approved_by: d.operator, first_approved_at: d.approvedAt })
        .where('id', '=', d.claimId)
        .execute(),
    ProfileClaimApproved: (trx, d) =>
      trx
        .updateTable('profile_claims')
        .set({ status: 'approved', decided_by: d.operator, decided_at: d.approvedAt })
        .where('id', '=', d.claimId)
        .execute(),
    ProfileClaimRejected: (trx, d) =>
      trx
        .updateTable('profile_claims')
        .set({ status: 'rejected', reason: d.reason, decided_by: d.operator, decided_at: d.rejectedAt })
        .where('id', '=', d.claimId)
        .execute(),
    UserDeleted: async (trx, d) => {
      await trx.deleteFrom('profile_claims').where('profile_id', '=', d.userId).execute();
      await trx
        .deleteFrom('profile_claims')
        .where('claimant_id', '=', d.userId)
        .where('status', '!=', 'approved')
        .execute();
    },
  },
});

const iso = (v: Date | string) => new Date(v).toISOString();

function claimQuery(db: Kysely<IdentityDB>) {
  return db
    .selectFrom('profile_claims as c')
    .innerJoin('users as p', 'p.id', 'c.profile_id')
    .leftJoin('users as u', 'u.id', 'c.claimant_id')
    .select([
      'c.id',
      'c.method',
      'c.evidence',
      'c.note',
      'c.status',
      'c.reason',
      'c.decided_by',
      'c.created_at',
      'c.decided_at',
      'c.first_approved_by',
      'c.claimant_id',
      'p.id as profile_id',
      'p.username as profile_username',
      'p.name as profile_name',
      'u.id as claimant_user_id',
      'u.username as claimant_username',
      'u.name as claimant_name',
      'u.email as claimant_email',
      'u.email_verified as claimant_email_verified',
    ])
    .orderBy('c.created_at', 'desc');
}
type ClaimRow = Awaited<ReturnType<ReturnType<typeof claimQuery>['execute']>>[number];

const toClaim = (r: ClaimRow): ProfileClaim => ({
  id: r.id,
  profile: { id: r.profile_id, username: r.profile_username, name: r.profile_name },
  method: r.method as ClaimMethod,
  evidence: r.evidence,
  note: r.note,
  status: r.status,
  reason: r.reason,
  createdAt: iso(r.created_at),
  decidedAt: r.decided_at ? iso(r.decided_at) : null,
});

const toOpsClaim = (r: ClaimRow): OpsProfileClaim => ({
  ...toClaim(r),
  claimant:
    r.claimant_user_id &&
    r.claimant_username !== null &&
    r.claimant_name !== null &&
    r.claimant_email !== null
      ? {
          id: r.claimant_user_id,
          username: r.claimant_username,
          name: r.claimant_name,
          email: r.claimant_email,
          emailVerified: !!r.claimant_email_verified,
        }
      : null,
  decidedBy: r.decided_by,
  approvals: r.status === 'approved' ? 2 : r.first_approved_by ? 1 : 0,
  firstApprovedBy: r.first_approved_by,
});

export class ProfileClaimsReadModel {
  constructor(private readonly db: Kysely<IdentityDB>) {}

  async forOperators(filter: { status?: ClaimStatus | undefined; id?: string }): Promise<OpsProfileClaim[]> {
    let q = claimQuery(this.db).limit(200);
    if (filter.status) q = q.where('c.status', '=', filter.status);
    if (filter.id) q = q.where('c.id', '=', filter.id);
    return (await q.execute()).map(toOpsClaim);
  }

  /** A person's claims: the ones they made, and the profile an approved claim made theirs. */
  async mine(userId: string): Promise<ProfileClaim[]> {
    const rows = await claimQuery(this.db)
      .where((eb) =>
        eb.or([
          eb('c.claimant_id', '=', userId),
          eb.and([eb('c.profile_id', '=', userId), eb('c.status', '=', 'approved')]),
        ]),
      )
      .limit(100)
      .execute();
    return rows.map(toClaim);
  }

  async one(id: string): Promise<ProfileClaim | undefined> {
    const [row] = await claimQuery(this.db).where('c.id', '=', id).execute();
    return row ? toClaim(row) : undefined;
  }

  async pendingOf(filter: { profileId?: string; claimantId?: string }): Promise<{ id: string } | undefined> {
    let q = this.db.selectFrom('profile_claims').select('id').where('status', '=', 'pending');
    if (filter.profileId) q = q.where('profile_id', '=', filter.profileId);
    if (filter.claimantId) q = q.where('claimant_id', '=', filter.claimantId);
    return q.executeTakeFirst();
  }
}
