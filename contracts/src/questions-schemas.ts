import { z } from 'zod';
import { ANSWER_MESSAGES, ASK_MESSAGES, TAG_MESSAGES } from './core/question-rules.js';

// The questions context's /api request schemas (spec §7) and the question as the API returns it; the rules that check
// the drafts are in ./questions.ts.

export const PATCH_MESSAGES = {
  nothing: 'Send { displayOnProfile: true | false } or { deletedByReceiver: true }',
  noRestore: 'A deleted question cannot be restored',
} as const;

// ---- request schemas (the declarations in ./api/questions.ts) ----
//
// Types only: the spec's rules and their order live in the check functions above, which the service still calls, so
// the first message a person sees is the spec's. Every field the rules read is optional here (a missing title is the
// rule's "Question title is required", not a schema error); a field of the wrong JSON type is refused with a clear
// sentence. Unknown fields are dropped, as the spec's clients send more than the server reads.

const NOT_AN_OBJECT = 'The request body must be a JSON object.';
const textField = (label: string) => z.string({ error: `${label} must be text` }).nullish();
const flagField = (label: string) => z.boolean({ error: `${label} must be true or false` }).nullish();
const ZTagsField = z
  .array(z.string({ error: TAG_MESSAGES.notAList }), { error: TAG_MESSAGES.notAList })
  .nullish();

/** `:id` of a question route; the service answers a malformed id like an unknown one (404), or 400 on answer. */
export const ZQuestionIdParams = z.object({ id: z.string().max(200) });

/**
 * `POST /api/questions` (spec §7 question payload): a free question (guest or signed in), or with `isCurated: true`
 * the owner's curated Q&A. `recipientName`, `toUserEmail` and `fromUsername` are in the spec's payload but never
 * trusted: the server resolves the recipient from `toUserId` and the asker from the token.
 */
export const ZAskQuestionBody = z
  .object(
    {
      question: textField('Question title'),
      detail: textField('Description'),
      /** Dollars (spec §3); a free question has 0 — tips go through checkout. */
      tip: z.union([z.number(), z.string()], { error: ASK_MESSAGES.selectTip }).nullish(),
      isCurated: flagField('isCurated'),
      toUserId: z.string({ error: ASK_MESSAGES.recipientMissing }).nullish(),
      toUsername: textField('toUsername'),
      recipientName: textField('recipientName'),
      toUserEmail: textField('toUserEmail'),
      fromUsername: textField('fromUsername'),
      askedName: textField('Name'),
      askedEmail: textField('Email'),
      yourName: textField('Name'),
      yourEmail: textField('Email'),
      /** A guest ticked the Terms of Use and Privacy Policy box. */
      agreedToTerms: z.boolean({ error: ASK_MESSAGES.mustAgree }).nullish(),
      /** The asker's consent (issue 14): true is "Private — only I see the answer"; default: may be published. */
      isPrivate: flagField('isPrivate'),
      /**
       * Issue 28: a status link made by the asker's browser (32 random bytes, base64url), attached when the question
       * is created, never to an existing one; the page after asking (or the checkout's return) is `/q/{statusToken}`.
       */
      statusToken: textField('statusToken'),
      // curated Q&A only
      answer: textField('Answer'),
      source: textField('Source'),
      tags: ZTagsField,
      displayOnProfile: flagField('displayOnProfile'),
      replierName: textField('Replier name'),
    },
    { error: NOT_AN_OBJECT },
  )
  .default({});
export type AskQuestionBody = z.infer<typeof ZAskQuestionBody>;

/** `PUT /api/questions/:id/answer` (spec §7); `skipNotify: true` edits the existing answer without an e-mail. */
export const ZAnswerQuestionBody = z
  .object(
    {
      answer: z.string({ error: ANSWER_MESSAGES.answerRequired }).nullish(),
      tags: ZTagsField,
      displayOnProfile: flagField('displayOnProfile'),
      replierName: textField('Replier name'),
      skipNotify: flagField('skipNotify'),
      /** Redaction (issue 14): the question's public wording, when the owner edits it before publishing. */
      publicQuestion: textField('Public question'),
      publicDetail: textField('Public description'),
    },
    { error: NOT_AN_OBJECT },
  )
  .default({});
export type AnswerQuestionBody = z.infer<typeof ZAnswerQuestionBody>;

/** `PATCH /api/questions/:id`: `{ displayOnProfile }` or `{ deletedByReceiver: true }` (checked by `checkPatchBody`). */
export const ZPatchQuestionBody = z
  .object(
    {
      deletedByReceiver: z.boolean({ error: PATCH_MESSAGES.noRestore }).optional(),
      displayOnProfile: z.boolean({ error: PATCH_MESSAGES.nothing }).optional(),
    },
    { error: NOT_AN_OBJECT },
  )
  .default({});
export type PatchQuestionBody = z.infer<typeof ZPatchQuestionBody>;

/**
 * Internal call (service to service, never through the BFF): payments hands over a tipped question when it starts
 * checkout. Questions validates it with the ask rules and keeps it "awaiting payment" until `TipAuthorized`.
 */
export const ZSubmitTippedQuestionRequest = z.object({
  questionId: z.uuid('questionId must be a UUID'),
  /** The spec §7 question payload the browser sent to checkout (checked with the ask rules). */
  questionData: z.record(z.string(), z.unknown()),
  /** The signed-in asker (payments verified the token), or null for a guest. */
  askerUserId: z.uuid().nullable(),
  /** The tip, in integer cents (checked with the ask rules 6–7: `checkTipCents`). */
  amountCents: z.number({ error: ASK_MESSAGES.selectTip }).optional(),
  currency: z.string().regex(/^[a-z]{3}$/, 'currency must be a lowercase ISO code like usd'),
  /** Payment provider reference (PaymentIntent id) that capture and release act on. */
  paymentRef: z.string().min(1).max(200),
});
export type SubmitTippedQuestionRequest = z.infer<typeof ZSubmitTippedQuestionRequest>;

/** `x-internal-token`: the shared secret of `/internal/*` calls (`INTERNAL_API_TOKEN`, required in every run mode). */
export const ZInternalCallHeaders = z.object({ 'x-internal-token': z.string().optional() });

// ---- responses ----
//
// One definition per shape: the zod schema checks what the service sends (strict: a field not declared here is a
// failed response, not a silently stripped one) and its inferred type is what the web app imports, type-only, from
// `@ques/contracts/core` (no zod in the browser).

/** Spec §3 "status": Pending until answered. */
export const ZQuestionStatus = z.enum(['Pending', 'Answered', 'Withdrawn', 'Awaiting payment']);
export type QuestionStatus = z.infer<typeof ZQuestionStatus>;

/**
 * Where a tip stands: `held` on the card until the answer (`capturing` → `captured`), or `released` when the
 * question was withdrawn, deleted, or left unanswered past the 5-day window ("released, never charged").
 */
export const ZTipStatus = z.enum([
  'none',
  'awaiting_authorization',
  'held',
  'capturing',
  'captured',
  'released',
]);
export type TipStatus = z.infer<typeof ZTipStatus>;

const ZTime = z.iso.datetime({ offset: true });

/** A question as anyone may see it on a public page: no e-mail, no asker, no tip. */
export const ZPublicQuestion = z.strictObject({
  _id: z.string(),
  id: z.string(),
  question: z.string(),
  detail: z.string(),
  /** '' until answered. */
  answer: z.string(),
  source: z.string(),
  tags: z.array(z.string()),
  status: ZQuestionStatus,
  isCurated: z.boolean(),
  displayOnProfile: z.boolean(),
  /** The asker chose private (issue 14): never on a public page, whatever `displayOnProfile` says. */
  isPrivate: z.boolean().optional(),
  deletedByReceiver: z.boolean(),
  toUsername: z.string(),
  recipientName: z.string(),
  replierName: z.string(),
  createdAt: ZTime,
  updatedAt: ZTime,
  answeredAt: ZTime.nullable(),
});
export type PublicQuestion = z.infer<typeof ZPublicQuestion>;

/** The full record, for its asker and its recipient (spec §3 fields + tip status and the answer deadline). */
export const ZQuestion = ZPublicQuestion.extend({
  toUserId: z.string(),
  /** Only for the recipient (it is their own address). */
  toUserEmail: z.string().optional(),
  fromUsername: z.string(),
  askedName: z.string(),
  askedEmail: z.string(),
  yourName: z.string(),
  yourEmail: z.string(),
  /** The tip in dollars (spec §3); 0 without one. */
  tip: z.number().nonnegative(),
  /** The same tip in integer cents (kept for clients written before `tip` was the one /api name). */
  tipAmount: z.number().int().nonnegative(),
  currency: z.string().nullable(),
  tipStatus: ZTipStatus,
  /** When an unanswered tipped question's tip is released (5 days after asking); null without a tip. */
  answerDeadline: ZTime.nullable(),
  /** The window passed unanswered: the tip was released; the question can still be answered, for free. */
  answerWindowExpired: z.boolean(),
  /** Issue 14: the public wording the owner chose (the fields above keep the original); only when redacted. */
  publicQuestion: z.string().optional(),
  publicDetail: z.string().optional(),
  /** Issue 18: Ques hid this answer from public view, and why (its recipient only). */
  hiddenByOperator: z.strictObject({ reason: z.string(), hiddenAt: ZTime }).optional(),
});
export type Question = z.infer<typeof ZQuestion>;

/**
 * A question as its viewer may see it: the public view for anyone, the full record for its parties. (The public view
 * comes first: public lists are the most read, and a strict object refuses the other shape either way.)
 */
export const ZQuestionView = z.union([ZPublicQuestion, ZQuestion]);

/** `DELETE /api/questions/:id`. */
export const ZQuestionWithdrawnResponse = z.strictObject({ message: z.literal('Question withdrawn') });
