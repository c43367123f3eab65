import { describe, expect, it } from 'vitest';
import { CLAIM_MESSAGES as C } from '@ques/contracts/core';
import { deciderSpec } from '@ques/kit/testing';
import { profileClaimDecider, type ProfileClaimCommand, type ProfileClaimEvent } from './domain.js';

const now = new Date('2026-11-23T10:00:00.000Z');
const claimId = '0b9a1f7e-4c1d-4e5a-9b2f-3c4d5e6f7a81';
const profileId = '6f1c1c8e-3a0b-4a9e-9d1e-1c7c8f1f0a01';
const claimantId = '7a2d2d9f-4b1c-4b0f-8e2f-2d8d9f2f1b02';
const spec = deciderSpec(profileClaimDecider);

const submit: ProfileClaimCommand = {
  type: 'SubmitClaim',
  data: {
    claimId,
    profileId,
    claimantId,
    method: 'email',
    evidence: 'marie@sorbonne.example',
    note: '',
    now,
  },
};
const submitted: ProfileClaimEvent = {
  type: 'ProfileClaimSubmitted',
  data: {
    claimId,
    userId: profileId,
    claimantId,
    method: 'email',
    evidence: 'marie@sorbonne.example',
    note: '',
    submittedAt: now.toISOString(),
  },
};
const opalId = '1c1c1c1c-1c1c-4c1c-8c1c-1c1c1c1c1c1c';
const pipId = '2d2d2d2d-2d2d-4d2d-8d2d-2d2d2d2d2d2d';
const creatorId = '3e3e3e3e-3e3e-4e3e-8e3e-3e3e3e3e3e3e';
const approve = (operator: string, operatorId: string): ProfileClaimCommand => ({
  type: 'ApproveClaim',
  data: { operator, operatorId, archiveCreatorId: creatorId, now },
});
const first: ProfileClaimEvent = {
  type: 'ProfileClaimFirstApproval',
  data: { claimId, userId: profileId, claimantId, operator: 'opal', operatorId: opalId, approvedAt: now.toISOString() },
};
const approved: ProfileClaimEvent = {
  type: 'ProfileClaimApproved',
  data: { claimId, userId: profileId, claimantId, operator: 'pip', operatorId: pipId, approvedAt: now.toISOString() },
};
const rejected: ProfileClaimEvent = {
  type: 'ProfileClaimRejected',
  data: {
    claimId,
    userId: profileId,
    claimantId,
    reason: 'No proof',
    operator: 'opal',
    rejectedAt: now.toISOString(),
  },
};

describe('profile claim decider (ADR 0034)', () => {
  it('submits a claim naming the claimed profile as its subject; a retried submit records nothing', () => {
    spec.given([]).when(submit).then([submitted]);
    spec.given([submitted]).when(submit).thenNothingHappened();
  });

  it('refuses a claim of one’s own profile', () => {
    spec
      .given([])
      .when({ ...submit, data: { ...submit.data, claimantId: profileId } })
      .thenThrows({ status: 409, message: C.ownProfile });
  });

  it('keeps no evidence for a note-only claim', () => {
    spec
      .given([])
      .when({ ...submit, data: { ...submit.data, method: 'note', evidence: 'stray', note: 'It is me.' } })
      .then((events) =>
        expect(events[0]).toMatchObject({ data: { method: 'note', evidence: '', note: 'It is me.' } }),
      );
  });

  it('approves with two different operators: the first approval leaves it pending, the second completes it once', () => {
    spec.given([submitted]).when(approve('opal', opalId)).then([first]);
    spec.given([submitted, first]).when(approve('pip', pipId)).then([approved]);
    spec.given([submitted, first, approved]).when(approve('opal', opalId)).thenNothingHappened();
    spec
      .given([submitted, rejected])
      .when(approve('opal', opalId))
      .thenThrows({ status: 409, message: C.alreadyRejected });
  });

  it('four eyes (ADR 0054): never the first approver twice, the claimant, or the archive’s creator', () => {
    spec
      .given([submitted, first])
      .when(approve('opal', opalId))
      .thenThrows({ status: 409, message: C.alreadyApprovedByYou });
    spec.given([submitted]).when(approve('cleo', claimantId)).thenThrows({ status: 403, message: C.ownClaim });
    spec.given([submitted, first]).when(approve('cleo', claimantId)).thenThrows({ status: 403, message: C.ownClaim });
    spec.given([submitted]).when(approve('cora', creatorId)).thenThrows({ status: 403, message: C.creatorApproves });
  });

  it('rejects once with the reason; an approved claim cannot be rejected; an unknown claim is a 404', () => {
    spec
      .given([submitted])
      .when({ type: 'RejectClaim', data: { reason: '  No proof ', operator: 'opal', now } })
      .then([rejected]);
    spec
      .given([submitted, rejected])
      .when({ type: 'RejectClaim', data: { reason: 'Again', operator: 'opal', now } })
      .thenNothingHappened();
    spec
      .given([submitted, approved])
      .when({ type: 'RejectClaim', data: { reason: 'x', operator: 'opal', now } })
      .thenThrows({ status: 409, message: C.alreadyApproved });
    spec
      .given([])
      .when(approve('opal', opalId))
      .thenThrows({ status: 404 });
  });
});
