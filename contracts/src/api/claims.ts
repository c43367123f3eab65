import { z } from 'zod';
import { CLAIM_LIMITS, CLAIM_MESSAGES as C, CLAIM_METHODS } from '../core/claims.js';
import { defineCall } from './call.js';
import { AUTH_ERRORS } from './identity.js';
import { OPERATOR_ERRORS } from './ops.js';

/*
 * Claiming an archive profile (issue 18, ADR 0034): a signed-in person submits a claim and sees its outcome; operators
 * list claims and approve or reject them (confirmed in the console, idempotent). Identity answers all of them.
 */


const ZClaimMethod = z.enum(CLAIM_METHODS, { error: C.methodRequired });

export const ZSubmitClaimRequest = z
  .strictObject({
    username: z.string().trim().min(1, C.noSuchProfile).max(100, C.noSuchProfile),
    method: ZClaimMethod,
    /** The address (method `email`) or the link (method `link`); empty for `note`. */
    evidence: z
      .string()
      .trim()
      .max(CLAIM_LIMITS.evidence, `The address or link must be at most ${CLAIM_LIMITS.evidence} characters`)
      .default(''),
    note: z
      .string()
      .trim()
      .max(CLAIM_LIMITS.note, `The note must be at most ${CLAIM_LIMITS.note} characters`)
      .default(''),
  })
  .superRefine((body, ctx) => {
    if (body.method === 'email' && !z.email().safeParse(body.evidence).success)
      ctx.addIssue({ code: 'custom', path: ['evidence'], message: C.emailRequired });
    if (body.method === 'link' && !/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(body.evidence))
      ctx.addIssue({ code: 'custom', path: ['evidence'], message: C.linkRequired });
    if (body.method === 'note' && !body.note)
      ctx.addIssue({ code: 'custom', path: ['note'], message: C.noteRequired });
  });
export type SubmitClaimRequest = z.infer<typeof ZSubmitClaimRequest>;

export const ZProfileClaim = z.strictObject({
  id: z.string(),
  profile: z.strictObject({ id: z.string(), username: z.string(), name: z.string() }),
  method: z.enum(CLAIM_METHODS),
  evidence: z.string(),
  note: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  reason: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});

export const ZOpsProfileClaim = ZProfileClaim.extend({
  claimant: z
    .strictObject({
      id: z.string(),
      username: z.string(),
      name: z.string(),
      email: z.string(),
      emailVerified: z.boolean(),
    })
    .nullable(),
  decidedBy: z.string().nullable(),
  approvals: z.number().int(),
  firstApprovedBy: z.string().nullable(),
});

const ZClaimParams = z.object({ id: z.uuid({ error: C.noSuchClaim }) });

export const claimsApi = {
  submit: defineCall({
    id: 'submitProfileClaim',
    method: 'POST',
    path: '/api/claims',
    service: 'identity',
    summary:
      'Claim a non-affiliated archive profile ("Is this you?"): how we can verify you, for the operators to review',
    description:
      'Signed in only. Refused for a profile that is not an archive, while the profile (or the caller) already has a ' +
      'claim waiting, and for your own profile. Approval moves your sign-in to the profile and closes the account you ' +
      'claim with (ADR 0034). With an Idempotency-Key a retried submit records one claim.',
    auth: 'required',
    idempotent: true,
    errors: {
      400: [C.methodRequired, C.emailRequired, C.linkRequired, C.noteRequired],
      401: [...AUTH_ERRORS],
      404: [C.noSuchProfile],
      409: [C.notArchive, C.pending, C.yourPending, C.ownProfile],
    },
    schema: { body: ZSubmitClaimRequest, response: { 201: ZProfileClaim } },
  }),
  mine: defineCall({
    id: 'myProfileClaims',
    method: 'GET',
    path: '/api/claims/mine',
    service: 'identity',
    summary: "The caller's profile claims and what became of them (the reason of a rejection)",
    auth: 'required',
    errors: { 401: [...AUTH_ERRORS] },
    schema: { response: { 200: z.strictObject({ claims: z.array(ZProfileClaim) }) } },
  }),
};

export const claimsOpsApi = {
  list: defineCall({
    id: 'opsListProfileClaims',
    method: 'GET',
    path: '/api/ops/claims',
    service: 'identity',
    summary: 'Operators: profile claims, newest first, by status (pending/approved/rejected)',
    auth: 'operator',
    errors: OPERATOR_ERRORS,
    schema: {
      querystring: z.object({ status: z.enum(['pending', 'approved', 'rejected']).optional() }),
      response: { 200: z.strictObject({ claims: z.array(ZOpsProfileClaim) }) },
    },
  }),
  approve: defineCall({
    id: 'opsApproveProfileClaim',
    method: 'POST',
    path: '/api/ops/claims/:id/approve',
    service: 'identity',
    summary:
      "Operators: approve a claim — the archive becomes an ordinary profile signed in to with the claimant's e-mail and password",
    description:
      "The claimant's own account is closed; the profile keeps its id, answers and sources. Approving again changes nothing.",
    auth: 'operator',
    idempotent: true,
    errors: {
      ...OPERATOR_ERRORS,
      404: [...OPERATOR_ERRORS[404], C.noSuchClaim],
      409: [C.alreadyRejected, C.claimantGone, C.noLongerArchive],
    },
    schema: { params: ZClaimParams, body: z.object({}).nullish(), response: { 200: ZOpsProfileClaim } },
  }),
  reject: defineCall({
    id: 'opsRejectProfileClaim',
    method: 'POST',
    path: '/api/ops/claims/:id/reject',
    service: 'identity',
    summary:
      'Operators: reject a claim with a reason (shown to the claimant and e-mailed to a verified address)',
    auth: 'operator',
    idempotent: true,
    errors: {
      ...OPERATOR_ERRORS,
      400: [C.reasonRequired],
      404: [...OPERATOR_ERRORS[404], C.noSuchClaim],
      409: [C.alreadyApproved],
    },
    schema: {
      params: ZClaimParams,
      body: z.strictObject({
        reason: z
          .string({ error: C.reasonRequired })
          .trim()
          .min(1, C.reasonRequired)
          .max(CLAIM_LIMITS.reason, `The reason must be at most ${CLAIM_LIMITS.reason} characters`),
      }),
      response: { 200: ZOpsProfileClaim },
    },
  }),
};
