/*
 * Claiming an archive profile (issue 18, ADR 0034), zod-free: the sentences, limits and shapes the claim page and
 * the console share (schemas in ../api/claims.ts).
 */

/** How a claimant says they can be verified: an address at their domain, a link from their official site, a note. */
export const CLAIM_METHODS = ['email', 'link', 'note'] as const;
export type ClaimMethod = (typeof CLAIM_METHODS)[number];

export const CLAIM_METHOD_LABELS: Record<ClaimMethod, string> = {
  email: 'An e-mail address at my domain',
  link: 'A link from my official site',
  note: 'A note for the reviewers',
};

export const CLAIM_LIMITS = { evidence: 500, note: 2000, reason: 1000 } as const;

export const CLAIM_MESSAGES = {
  notArchive: 'Only a non-affiliated archive profile can be claimed.',
  pending: 'This profile already has a claim waiting for review.',
  yourPending: 'You already have a claim waiting for review.',
  ownProfile: 'This profile is already yours.',
  noSuchProfile: 'There is no profile with this username.',
  noSuchClaim: 'There is no claim with this id.',
  alreadyApproved: 'This claim was already approved.',
  alreadyRejected: 'This claim was already rejected.',
  claimantGone: 'The account that made this claim no longer exists.',
  noLongerArchive: 'This profile is no longer an archive profile.',
  methodRequired: 'Please choose how we can verify you.',
  emailRequired: 'Please enter an e-mail address at your domain.',
  linkRequired: 'Please enter a link (https://…) from your official site.',
  noteRequired: 'Please write a note that helps us verify you.',
  reasonRequired: 'Please give a reason.',
  submitted: 'Your claim was sent. We will e-mail you when it has been reviewed.',
  /** Four eyes (issue 33, ADR 0054): an approval takes two operators, neither the claimant nor the archive's creator. */
  ownClaim: 'You cannot approve your own claim: another operator must review it.',
  creatorApproves: 'You created this archive profile: two other operators must approve its claim.',
  alreadyApprovedByYou: 'You have already approved this claim: it is awaiting a second operator.',
  awaitingSecond: 'Approved by one operator: awaiting a second operator.',
} as const;

export type ClaimStatus = 'pending' | 'approved' | 'rejected';

/** A claim as its claimant sees it (`GET /api/claims/mine`). */
export interface ProfileClaim {
  id: string;
  profile: { id: string; username: string; name: string };
  method: ClaimMethod;
  evidence: string;
  note: string;
  status: ClaimStatus;
  /** Why it was rejected (the operator's words). */
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
}

/** A claim as the console shows it: who asked, and who decided. */
export interface OpsProfileClaim extends ProfileClaim {
  /** The claimant's account (null once it no longer exists — after an approval it is the profile itself). */
  claimant: { id: string; username: string; name: string; email: string; emailVerified: boolean } | null;
  decidedBy: string | null;
  /** Approvals so far (two complete a claim, ADR 0054) and who gave the first one while it is pending. */
  approvals: number;
  firstApprovedBy: string | null;
}
