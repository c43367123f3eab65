import { sql, type Kysely } from 'kysely';
import {
  CLAIM_MESSAGES as C,
  type ClaimStatus,
  type OpsProfileClaim,
  type ProfileClaim,
  type SubmitClaimRequest,
} from '@ques/contracts';
import {
  conflict,
  isUniqueViolation,
  notFound,
  recordOperatorAct,
  scheduleJob,
  type AccessClaims,
  type Clock,
  type EventMetadata,
  type EventStore,
  type JobHandler,
  type Logger,
  type Mailer,
} from '@ques/kit';
import { claimOutcomeMail } from '../mails.js';
import type { IdentityDB } from '../db/schema.js';
import type { Sessions } from '../sessions/sessions.js';
import type { Accounts } from '../users/accounts.js';
import type { UserCommands } from '../users/commands.js';
import type { EmailVerification } from '../users/email-verification.js';
import { userStreamId } from '../users/domain/user.js';
import type { UsersReadModel } from '../users/read-models/users.js';
import type { ProfileClaimCommands } from './commands.js';
import type { ProfileClaimsReadModel } from './read-model.js';

export const CLAIM_MAIL_JOB = 'profile-claim-mail';

export interface ProfileClaimParts {
  store: EventStore<IdentityDB>;
  claims: ProfileClaimCommands;
  claimsView: ProfileClaimsReadModel;
  commands: UserCommands;
  users: UsersReadModel;
  sessions: Sessions;
  verification: EmailVerification;
  /** Retires the claimant's own account the way deletion does. */
  accounts: Pick<Accounts, 'retire'>;
  clock: Clock;
}

/**
 * Claiming an archive profile (issue 18, ADR 0034). A signed-in person claims an archive ("Is this you?") with how
 * to verify them; an operator approves or rejects it. Approving, in one transaction: the claim's event, the claimant's
 * own account retired (`Accounts.retire`, as a deletion), the archive's `ProfileClaimed` (the claimant's address,
 * verification and password hash; no longer an archive — consumers get a `ProfileUpdated` snapshot), the archive's
 * old sessions and pending links ended, the operator's act recorded and the outcome mail queued.
 */
export class ProfileClaims {
  constructor(private readonly parts: ProfileClaimParts) {}

  async submit(
    who: AccessClaims,
    claimId: string,
    body: SubmitClaimRequest,
    metadata: EventMetadata,
  ): Promise<ProfileClaim> {
    const { users, claims, claimsView, clock } = this.parts;
    const profile = /^[\w-]{1,100}$/.test(body.username) ? await users.byUsername(body.username) : undefined;
    if (!profile) throw notFound(C.noSuchProfile);
    const retried = await claimsView.one(claimId);
    if (retried) return retried;
    if (profile.id === who.sub) throw conflict(C.ownProfile);
    if (!profile.archive_profile) throw conflict(C.notArchive);
    // Only an account registered as an archive is claimable (ADR 0054): not a real one marked as an archive.
    const { state } = await this.parts.commands.load(profile.id);
    if (state.status !== 'active' || !state.archiveOrigin) throw conflict(C.notArchive);
    if (await claimsView.pendingOf({ profileId: profile.id })) throw conflict(C.pending);
    if (await claimsView.pendingOf({ claimantId: who.sub })) throw conflict(C.yourPending);
    try {
      await claims.handle(
        claimId,
        {
          type: 'SubmitClaim',
          data: {
            claimId,
            profileId: profile.id,
            claimantId: who.sub,
            method: body.method,
            evidence: body.evidence,
            note: body.note,
            now: clock(),
          },
        },
        metadata,
      );
    } catch (error) {
      // Two claims of one profile racing: the read model keeps one pending claim per profile.
      if (isUniqueViolation(error, 'profile_claims_one_pending')) throw conflict(C.pending);
      throw error;
    }
    return (await claimsView.one(claimId))!;
  }

  mine(userId: string): Promise<ProfileClaim[]> {
    return this.parts.claimsView.mine(userId);
  }

  list(status?: ClaimStatus): Promise<OpsProfileClaim[]> {
    return this.parts.claimsView.forOperators({ status });
  }

  private async opsClaim(id: string): Promise<OpsProfileClaim> {
    const [row] = await this.parts.claimsView.forOperators({ id });
    if (!row) throw notFound(C.noSuchClaim);
    return row;
  }

  /**
   * Four eyes (issue 33, ADR 0054): the first operator's approval leaves the claim pending ("awaiting a second
   * operator"); a second, different operator completes it. Neither may be the claimant or the operator who created the
   * archive, and only a profile created as an archive and never claimed can be taken over (the user decider checks).
   * Idempotent once approved; a rejected claim is a 409. Each step is audited in its own transaction.
   */
  async approve(
    op: AccessClaims,
    id: string,
    metadata: EventMetadata,
    correlationId: string,
  ): Promise<OpsProfileClaim> {
    const { claims, store, clock } = this.parts;
    const { state } = await claims.load(id);
    if (state.status === 'none') throw notFound(C.noSuchClaim);
    if (state.status === 'approved') return this.opsClaim(id);
    const now = clock();
    const archiveCreatorId = await creatorOf(store.db, state.profileId);
    await claims.handle(
      id,
      { type: 'ApproveClaim', data: { operator: op.username, operatorId: op.sub, archiveCreatorId, now } },
      metadata,
      {
        alongside: async (trx, { events, state: claim }) => {
          const [event] = events;
          if (!event || claim.status === 'none') return;
          if (event.type === 'ProfileClaimFirstApproval') {
            const profile = await userRow(trx, claim.profileId);
            await recordOperatorAct(this.parts.store, trx, op, {
              action: 'claim.approve.first',
              subject: `claim:${id}`,
              summary: `Gave the first of two approvals of a claim of @${profile?.username ?? claim.profileId}`,
              detail: { profileId: claim.profileId, claimantId: claim.claimantId },
            }, metadata);
            return;
          }
          await this.takeOver(trx, op, id, claim, now, metadata, correlationId);
        },
      },
    );
    return this.opsClaim(id);
  }

  /** The second approval's effects, in its transaction (see the class comment). */
  private async takeOver(
    trx: Kysely<IdentityDB>,
    op: AccessClaims,
    id: string,
    claim: { profileId: string; claimantId: string },
    now: Date,
    metadata: EventMetadata,
    correlationId: string,
  ): Promise<void> {
    const { commands, sessions, verification, accounts } = this.parts;
    const [claimant, profile] = await Promise.all([userRow(trx, claim.claimantId), userRow(trx, claim.profileId)]);
    if (!claimant) throw conflict(C.claimantGone);
    if (!profile?.archive_profile) throw conflict(C.noLongerArchive);
    // The claimant's own account ends first (its address becomes free), then the archive takes its sign-in.
    await accounts.retire(claimant.id, metadata, correlationId, trx);
    await commands.handle(
      profile.id,
      {
        type: 'TakeOverByClaim',
        data: {
          claimId: id,
          email: claimant.email,
          emailVerified: claimant.email_verified,
          passwordHash: claimant.password_hash,
          now,
        },
      },
      metadata,
      { transaction: trx },
    );
    // Whoever could sign in to the archive before (a CLI curator) cannot any more; links to its old address die.
    await sessions.revokeAllForUser(profile.id, 'profile claimed', { correlationId, trx });
    await verification.forget(trx, profile.id);
    await trx.deleteFrom('password_resets').where('user_id', '=', profile.id).execute();
    await this.recordDecision(trx, op, id, now, metadata, {
      action: 'claim.approve',
      summary: `Approved @${claimant.username}'s claim of @${profile.username} (second of two approvals)`,
      detail: { profileId: profile.id, claimantId: claimant.id },
    });
  }

  /** Rejects with a reason the claimant sees (idempotent: a rejected claim is answered as it is). */
  async reject(
    op: AccessClaims,
    id: string,
    reason: string,
    metadata: EventMetadata,
  ): Promise<OpsProfileClaim> {
    const { claims, clock } = this.parts;
    const now = clock();
    await claims.handle(id, { type: 'RejectClaim', data: { reason, operator: op.username, now } }, metadata, {
      alongside: async (trx, { events, state: claim }) => {
        if (events.length === 0 || claim.status === 'none') return;
        const profile = await userRow(trx, claim.profileId);
        await this.recordDecision(trx, op, id, now, metadata, {
          action: 'claim.reject',
          summary: `Rejected a claim of @${profile?.username ?? claim.profileId}`,
          detail: { profileId: claim.profileId, claimantId: claim.claimantId },
        });
      },
    });
    return this.opsClaim(id);
  }

  /** An operator's decision on claim `id`, in its transaction: the audit entry, and the outcome mail to the claimant. */
  private async recordDecision(
    trx: Kysely<IdentityDB>,
    op: AccessClaims,
    id: string,
    now: Date,
    metadata: EventMetadata,
    act: { action: 'claim.approve' | 'claim.reject'; summary: string; detail: Record<string, unknown> },
  ): Promise<void> {
    await recordOperatorAct(this.parts.store, trx, op, { ...act, subject: `claim:${id}` }, metadata);
    await scheduleJob(trx, { kind: CLAIM_MAIL_JOB, key: `profile-claim-mail:${id}`, dueAt: now, payload: { claimId: id } });
  }
}

/** Who created a profile: the actor of its stream's first event (an operator's id for a console archive). */
async function creatorOf(db: Kysely<IdentityDB>, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('events')
    .select(sql<string | null>`metadata->>'actor'`.as('actor'))
    .where('stream_id', '=', userStreamId(userId))
    .orderBy('stream_version')
    .limit(1)
    .executeTakeFirst();
  return row?.actor ?? null;
}

const userRow = (trx: Kysely<IdentityDB>, id: string) =>
  trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The outcome mail, only to a verified address (ADR 0021): a rejection to the claimant with the reason; an approval
 * to the profile's address — the claimant's, now.
 */
export function claimMailJob(deps: {
  log: Logger;
  mailer: Mailer | null;
  publicOrigin: string;
}): JobHandler<IdentityDB> {
  return async (trx, job) => {
    const { claimId } = job.payload as { claimId: string };
    const claim = await trx
      .selectFrom('profile_claims')
      .selectAll()
      .where('id', '=', claimId)
      .executeTakeFirst();
    if (!claim || claim.status === 'pending') return;
    const profile = await userRow(trx, claim.profile_id);
    const to = await userRow(trx, claim.status === 'approved' ? claim.profile_id : claim.claimant_id);
    if (!profile || !to?.email_verified) return;
    if (!deps.mailer) {
      deps.log.warn({ claimId }, 'this identity instance sends no e-mail: claim outcome mail skipped');
      return;
    }
    const page = `${deps.publicOrigin}/ask/${encodeURIComponent(profile.username)}`;
    await deps.mailer.send(
      claimOutcomeMail({ to: to.email, name: to.name, profileName: profile.name, page, status: claim.status, reason: claim.reason, claimId }),
    );
  };
}
