/** The profile-claim aggregate (issue 18, ADR 0034): events, state, evolve and decide. Pure — no I/O (lint-enforced). */
import { CLAIM_MESSAGES as C, type ClaimMethod } from '@ques/contracts/core';
import { conflict, decider, forbidden, notFound, unreachable } from '@ques/kit/domain';

/**
 * Every claim event names the claimed profile as `userId`: its personal fields are sealed with that profile's key
 * (ADR 0010) — the claim is about who that person is, and after an approval the evidence belongs to the owner's
 * account and is erased with it.
 */
export type ProfileClaimEvent =
  | {
      type: 'ProfileClaimSubmitted';
      data: {
        claimId: string;
        userId: string;
        claimantId: string;
        method: ClaimMethod;
        evidence: string;
        note: string;
        submittedAt: string;
      };
    }
  | {
      /** Four eyes (issue 33, ADR 0054): the first operator's approval; the claim stays pending for a second one. */
      type: 'ProfileClaimFirstApproval';
      data: { claimId: string; userId: string; claimantId: string; operatorId: string; operator: string; approvedAt: string };
    }
  | {
      /** The approval that completes the claim (the second operator's; claims approved before ADR 0054 had one). */
      type: 'ProfileClaimApproved';
      data: { claimId: string; userId: string; claimantId: string; operator: string; operatorId?: string; approvedAt: string };
    }
  | {
      type: 'ProfileClaimRejected';
      data: {
        claimId: string;
        userId: string;
        claimantId: string;
        reason: string;
        operator: string;
        rejectedAt: string;
      };
    };

export const CLAIM_EVENT_TYPES: ReadonlySet<string> = new Set<ProfileClaimEvent['type']>([
  'ProfileClaimSubmitted',
  'ProfileClaimFirstApproval',
  'ProfileClaimApproved',
  'ProfileClaimRejected',
]);

/** Sealed with the claimed profile's key (see above). */
export const CLAIM_PERSONAL_FIELDS: Record<ProfileClaimEvent['type'], readonly string[]> = {
  ProfileClaimSubmitted: ['evidence', 'note'],
  ProfileClaimFirstApproval: [],
  ProfileClaimApproved: [],
  ProfileClaimRejected: [],
};

export type ProfileClaimState =
  | { status: 'none' }
  | {
      status: 'pending' | 'approved' | 'rejected';
      claimId: string;
      profileId: string;
      claimantId: string;
      /** The operator ids of the approvals given while pending (ADR 0054). */
      approvedBy: string[];
    };

export type ProfileClaimCommand =
  | {
      type: 'SubmitClaim';
      data: {
        claimId: string;
        profileId: string;
        claimantId: string;
        method: ClaimMethod;
        evidence: string;
        note: string;
        now: Date;
      };
    }
  | {
      type: 'ApproveClaim';
      /** `archiveCreatorId`: the actor who created the claimed archive (null when unknown, e.g. the CLI). */
      data: { operator: string; operatorId: string; archiveCreatorId: string | null; now: Date };
    }
  | { type: 'RejectClaim'; data: { reason: string; operator: string; now: Date } };

export const profileClaimStreamId = (claimId: string) => `profile-claim-${claimId}`;

export function evolveProfileClaim(state: ProfileClaimState, event: ProfileClaimEvent): ProfileClaimState {
  switch (event.type) {
    case 'ProfileClaimSubmitted':
      return {
        status: 'pending',
        claimId: event.data.claimId,
        profileId: event.data.userId,
        claimantId: event.data.claimantId,
        approvedBy: [],
      };
    case 'ProfileClaimFirstApproval':
      return state.status === 'none' ? state : { ...state, approvedBy: [...state.approvedBy, event.data.operatorId] };
    case 'ProfileClaimApproved':
      return state.status === 'none' ? state : { ...state, status: 'approved' };
    case 'ProfileClaimRejected':
      return state.status === 'none' ? state : { ...state, status: 'rejected' };
    default:
      return unreachable(event);
  }
}

export function decideProfileClaim(
  command: ProfileClaimCommand,
  state: ProfileClaimState,
): ProfileClaimEvent[] {
  switch (command.type) {
    case 'SubmitClaim': {
      // A retried submit (same Idempotency-Key, same derived id) records nothing new.
      if (state.status !== 'none') return [];
      const { claimId, profileId, claimantId, method, evidence, note, now } = command.data;
      if (profileId === claimantId) throw conflict(C.ownProfile);
      return [
        {
          type: 'ProfileClaimSubmitted',
          data: {
            claimId,
            userId: profileId,
            claimantId,
            method,
            evidence: method === 'note' ? '' : evidence,
            note,
            submittedAt: now.toISOString(),
          },
        },
      ];
    }
    case 'ApproveClaim': {
      if (state.status === 'none') throw notFound(C.noSuchClaim);
      // Approving twice (a double click, a retried request) changes nothing the second time.
      if (state.status === 'approved') return [];
      if (state.status === 'rejected') throw conflict(C.alreadyRejected);
      // Four eyes (ADR 0054): two different operators, neither the claimant nor the archive's creator.
      const { operator, operatorId, archiveCreatorId, now } = command.data;
      if (operatorId === state.claimantId) throw forbidden(C.ownClaim);
      if (archiveCreatorId !== null && operatorId === archiveCreatorId) throw forbidden(C.creatorApproves);
      if (state.approvedBy.includes(operatorId)) throw conflict(C.alreadyApprovedByYou);
      const base = { claimId: state.claimId, userId: state.profileId, claimantId: state.claimantId, operatorId, operator, approvedAt: now.toISOString() };
      return [state.approvedBy.length === 0 ? { type: 'ProfileClaimFirstApproval', data: base } : { type: 'ProfileClaimApproved', data: base }];
    }
    case 'RejectClaim': {
      if (state.status === 'none') throw notFound(C.noSuchClaim);
      if (state.status === 'rejected') return [];
      if (state.status === 'approved') throw conflict(C.alreadyApproved);
      return [
        {
          type: 'ProfileClaimRejected',
          data: {
            claimId: state.claimId,
            userId: state.profileId,
            claimantId: state.claimantId,
            reason: command.data.reason.trim(),
            operator: command.data.operator,
            rejectedAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    default:
      return unreachable(command);
  }
}

export const profileClaimDecider = decider(
  (): ProfileClaimState => ({ status: 'none' }),
  evolveProfileClaim,
  decideProfileClaim,
);
