import { z } from 'zod';
import { HIDE_REASON_MAX, REPORT_NOTE_MAX, REPORT_REASONS, SUPPORT_ANSWER_MAX } from '../core/reports.js';
import { SUPPORT_CATEGORIES, SUPPORT_LIMITS } from '../core/support.js';
import { OPERATOR_ERRORS } from './ops.js';
import { defineCall } from './call.js';

/*
 * Issue 18 (ADR 0032): support requests and abuse reports in the operator console (support service), the public
 * "Report" call, and hiding an answer (questions service). Operator calls are refused (404) to everyone else.
 */


export const ZOpsSupportRequest = z.strictObject({
  id: z.string(),
  category: z.enum(SUPPORT_CATEGORIES),
  title: z.string(),
  description: z.string(),
  /** The signed-in sender, or null for a guest. */
  requester: z.strictObject({ userId: z.string(), username: z.string() }).nullable(),
  status: z.enum(['open', 'answered']),
  requestedAt: z.string(),
  answeredAt: z.string().nullable(),
  answerNote: z.string().nullable(),
  answeredBy: z.string().nullable(),
  /** Where the answer is (or would be) mailed: the requester's verified address is known. */
  canMailRequester: z.boolean(),
  answerMailedAt: z.string().nullable(),
});
export type OpsSupportRequest = z.infer<typeof ZOpsSupportRequest>;

export const ZReportTarget = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('answer'),
    questionId: z.uuid('This answer cannot be reported.'),
    /** Whose answer (for the console's link to the public page). */
    username: z.string().trim().max(64).optional(),
  }),
  z.strictObject({ kind: z.literal('profile'), username: z.string().trim().min(1).max(64) }),
]);

export const ZReportRequest = z.strictObject({
  target: ZReportTarget,
  reason: z.enum(REPORT_REASONS, { error: 'Please choose a reason.' }),
  note: z.string().trim().max(REPORT_NOTE_MAX, `The note must be at most ${REPORT_NOTE_MAX} characters`).optional(),
  /** Guests only (signed-in reporters need none): the solved support captcha. */
  captchaToken: z.string().max(SUPPORT_LIMITS.captchaToken).optional(),
});
export type ReportRequest = z.infer<typeof ZReportRequest>;

export const ZOpsAbuseReport = z.strictObject({
  id: z.string(),
  target: ZReportTarget,
  reason: z.enum(REPORT_REASONS),
  note: z.string().nullable(),
  reporter: z.strictObject({ userId: z.string(), username: z.string() }).nullable(),
  status: z.enum(['open', 'hidden', 'dismissed']),
  reportedAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  resolvedBy: z.string().nullable(),
});
export type OpsAbuseReport = z.infer<typeof ZOpsAbuseReport>;

const ZIdParams = z.object({ id: z.uuid() });
const ZListQuery = z.object({ status: z.string().max(20).optional(), category: z.string().max(40).optional() });

export const supportOpsApi = {
  listRequests: defineCall({
    id: 'opsListSupportRequests',
    method: 'GET',
    path: '/api/ops/support/requests',
    service: 'support',
    summary: 'Operators: support requests, newest first, by status (open/answered) and category',
    auth: 'operator',
    errors: OPERATOR_ERRORS,
    schema: { querystring: ZListQuery, response: { 200: z.array(ZOpsSupportRequest) } },
  }),
  answerRequest: defineCall({
    id: 'opsAnswerSupportRequest',
    method: 'POST',
    path: '/api/ops/support/requests/:id/answer',
    service: 'support',
    summary: 'Operators: mark a support request answered with a note (mailed to the requester)',
    auth: 'operator',
    idempotent: true,
    errors: { 400: ['Please write a note.'], ...OPERATOR_ERRORS },
    schema: {
      params: ZIdParams,
      body: z.strictObject({
        note: z.string().trim().min(1, 'Please write a note.').max(SUPPORT_ANSWER_MAX, `The note must be at most ${SUPPORT_ANSWER_MAX} characters`),
      }),
      response: { 200: ZOpsSupportRequest },
    },
  }),
  listReports: defineCall({
    id: 'opsListAbuseReports',
    method: 'GET',
    path: '/api/ops/support/reports',
    service: 'support',
    summary: 'Operators: abuse reports, newest first, by status (open/hidden/dismissed)',
    auth: 'operator',
    errors: OPERATOR_ERRORS,
    schema: { querystring: ZListQuery, response: { 200: z.array(ZOpsAbuseReport) } },
  }),
  resolveReport: defineCall({
    id: 'opsResolveAbuseReport',
    method: 'POST',
    path: '/api/ops/support/reports/:id/resolve',
    service: 'support',
    summary: 'Operators: close a report — the answer was hidden, or the report dismissed',
    auth: 'operator',
    idempotent: true,
    errors: { ...OPERATOR_ERRORS, 409: ['This report is already resolved.'] },
    schema: {
      params: ZIdParams,
      body: z.strictObject({
        resolution: z.enum(['hidden', 'dismissed']),
        note: z.string().trim().max(HIDE_REASON_MAX).optional(),
      }),
      response: { 200: ZOpsAbuseReport },
    },
  }),
  report: defineCall({
    id: 'reportAbuse',
    method: 'POST',
    path: '/api/reports',
    service: 'support',
    summary: 'Report a public answer or profile (reason, optional note; guests solve the support captcha)',
    description: 'Rate-limited per client like support requests; the reporter is whoever the token says, or a guest.',
    auth: 'optional',
    idempotent: true,
    rateLimit: 'auth',
    errors: {
      400: ['Please choose a reason.', 'Please complete the captcha.', 'The captcha answer is not valid. Please solve the captcha again.'],
      429: ['Too many requests. Please try again in a moment.'],
    },
    schema: { body: ZReportRequest, response: { 200: z.strictObject({ success: z.literal(true) }) } },
  }),
} as const;

/** Questions' operator call: hide an answer from every public surface, with a reason its owner sees. */
export const questionsOpsApi = {
  hideAnswer: defineCall({
    id: 'opsHideAnswer',
    method: 'POST',
    path: '/api/ops/questions/:id/hide',
    service: 'questions',
    summary: 'Operators: hide an answer from public view (page, sitemap, feeds) with a reason the owner sees',
    auth: 'operator',
    idempotent: true,
    errors: { 400: ['Please give a reason.'], ...OPERATOR_ERRORS },
    schema: {
      params: ZIdParams,
      body: z.strictObject({
        reason: z.string().trim().min(1, 'Please give a reason.').max(HIDE_REASON_MAX),
        reportId: z.uuid().optional(),
      }),
      response: { 200: z.strictObject({ questionId: z.string(), hidden: z.literal(true), reason: z.string() }) },
    },
  }),
} as const;
