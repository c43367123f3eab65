import { z } from 'zod';
import {
  ANSWER_MESSAGES,
  ASK_MESSAGES,
  CURATE_MESSAGES,
  QUESTION_LIMITS,
  TAG_MESSAGES,
} from './core/question-rules.js';
import { isStatusToken } from './core/asker-trust.js';
import { OPS_MESSAGES } from './core/ops.js';
import { hasControlChars, IDENTITY_MESSAGES } from './core/identity.js';
import { DEFAULT_PAGE_SIZE, isUuid, MAX_PAGE_SIZE, MIN_TIP_CENTS, type Checked } from './core/questions.js';

/*
 * The questions context: spec §5 validation (with the spec's messages), the /api bodies of spec §7, the question as
 * the API returns it, and the integration events (ques.questions.*). Also the payments events questions consumes,
 * so payments (next issue) publishes exactly these shapes.
 */

// The zod-free constants, messages and rules live in ./core/ (the browser imports them from there).
export * from './core/questions.js';
export * from './core/question-rules.js';

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

const ZEmailAddress = z.email();

/** A trimmed string field: undefined/null → '', a non-string → null (invalid). */
function text(value: unknown): string | null {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') return null;
  return value.trim();
}

function boundedText(value: unknown, max: number, label: string): Checked<string> {
  const v = text(value);
  if (v === null) return fail(`${label} must be text`);
  if (v.length > max) return fail(`${label} must be at most ${max} characters`);
  return { ok: true, value: v };
}

/** Spec §5 "Tags": trimmed, lowercased, empty ones dropped, duplicates dropped (first occurrence kept). */
export function normalizeTags(input: unknown): Checked<string[]> {
  if (input === undefined || input === null) return { ok: true, value: [] };
  if (!Array.isArray(input)) return fail(TAG_MESSAGES.notAList);
  const tags: string[] = [];
  for (const raw of input) {
    if (typeof raw !== 'string') return fail(TAG_MESSAGES.notAList);
    const tag = raw.trim().toLowerCase();
    if (!tag || tags.includes(tag)) continue;
    if (tag.length > QUESTION_LIMITS.tag) return fail(TAG_MESSAGES.tooLong);
    tags.push(tag);
  }
  if (tags.length > QUESTION_LIMITS.tags) return fail(TAG_MESSAGES.tooMany);
  return { ok: true, value: tags };
}

/** What the ask rules 1–4 leave of a question payload (spec §7). The recipient is resolved by the server. */
export interface AskDraft {
  question: string;
  detail: string;
  /** Name and e-mail a guest typed; null for a signed-in asker (their identity comes from the token). */
  guest: { name: string; email: string } | null;
  toUserId: string;
  /** The asker chose "Private — only I see the answer" (issue 14). */
  isPrivate: boolean;
  /**
   * The status link the asker's browser made for this question (issue 28), so the page after asking or paying opens
   * at once; null when none was sent or it is malformed (then no such link is made).
   */
  statusToken: string | null;
}

/**
 * Spec §5 ask rules 1–4, in the spec's order. Rules 5 (recipient e-mail) and 6–7 (tip) follow on the server once
 * the recipient is known: see `checkTipDollars` / `checkTipCents`. `agreedToTerms: true` is how a guest's client
 * says the terms box was ticked.
 */
export function checkAskDraft(body: unknown, opts: { signedIn: boolean }): Checked<AskDraft> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const question = text(b.question);
  if (!question) return fail(ASK_MESSAGES.titleRequired);
  if (question.length > QUESTION_LIMITS.question)
    return fail(`Question title must be at most ${QUESTION_LIMITS.question} characters`);
  const detail = boundedText(b.detail, QUESTION_LIMITS.detail, 'Description');
  if (!detail.ok) return detail;

  let guest: AskDraft['guest'] = null;
  if (!opts.signedIn) {
    if (b.agreedToTerms !== true) return fail(ASK_MESSAGES.mustAgree);
    const name = text(b.askedName) || text(b.yourName);
    const email = (text(b.askedEmail) || text(b.yourEmail))?.toLowerCase();
    if (!name || !email) return fail(ASK_MESSAGES.nameAndEmail);
    if (name.length > QUESTION_LIMITS.name)
      return fail(`Name must be at most ${QUESTION_LIMITS.name} characters`);
    // The name goes into the owner's mails as plain text (ADR 0054).
    if (hasControlChars(name)) return fail(IDENTITY_MESSAGES.nameControl);
    if (email.length > QUESTION_LIMITS.email || !ZEmailAddress.safeParse(email).success)
      return fail(ASK_MESSAGES.invalidEmail);
    guest = { name, email };
  }

  if (!isUuid(b.toUserId)) return fail(ASK_MESSAGES.recipientMissing);
  return {
    ok: true,
    value: {
      question,
      detail: detail.value,
      guest,
      toUserId: b.toUserId.toLowerCase(),
      isPrivate: b.isPrivate === true,
      statusToken: typeof b.statusToken === 'string' && isStatusToken(b.statusToken) ? b.statusToken : null,
    },
  };
}

/**
 * Spec §5 rules 6–7 for the `tip` of a question payload, in dollars. Absent means no tip (0). Something that is not
 * an amount (null, '', text, a negative number) means no amount was chosen.
 */
export function checkTipDollars(tip: unknown): Checked<number> {
  if (tip === undefined) return { ok: true, value: 0 };
  const value = typeof tip === 'string' && tip.trim() !== '' ? Number(tip.trim()) : tip;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return fail(ASK_MESSAGES.selectTip);
  if (value === 0) return { ok: true, value: 0 };
  if (value < 1) return fail(ASK_MESSAGES.penny);
  if (value > QUESTION_LIMITS.tipMaxDollars) return fail(ASK_MESSAGES.tipTooLarge);
  return { ok: true, value: Math.round(value * 100) / 100 };
}

/** The same rules for an amount in cents (what payments hands over). */
export function checkTipCents(amount: unknown): Checked<number> {
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0)
    return fail(ASK_MESSAGES.selectTip);
  if (amount < MIN_TIP_CENTS) return fail(ASK_MESSAGES.penny);
  if (amount > QUESTION_LIMITS.tipMaxDollars * 100) return fail(ASK_MESSAGES.tipTooLarge);
  return { ok: true, value: amount };
}

export interface CurateDraft {
  question: string;
  detail: string;
  answer: string;
  source: string;
  tags: string[];
  displayOnProfile: boolean;
  replierName: string | null;
}

/** Spec §5 curate form: title and answer required; description, tags, source optional; shown on profile by default. */
export function checkCurateDraft(body: unknown): Checked<CurateDraft> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const question = text(b.question);
  if (!question) return fail(CURATE_MESSAGES.titleRequired);
  if (question.length > QUESTION_LIMITS.question)
    return fail(`Question title must be at most ${QUESTION_LIMITS.question} characters`);
  const answer = text(b.answer);
  if (!answer) return fail(CURATE_MESSAGES.answerRequired);
  if (answer.length > QUESTION_LIMITS.answer)
    return fail(`Answer must be at most ${QUESTION_LIMITS.answer} characters`);
  const detail = boundedText(b.detail, QUESTION_LIMITS.detail, 'Description');
  if (!detail.ok) return detail;
  const source = boundedText(b.source, QUESTION_LIMITS.source, 'Source');
  if (!source.ok) return source;
  const tags = normalizeTags(b.tags);
  if (!tags.ok) return tags;
  if (b.displayOnProfile !== undefined && typeof b.displayOnProfile !== 'boolean')
    return fail('displayOnProfile must be true or false');
  if (b.tip !== undefined && b.tip !== 0 && b.tip !== '0') return fail(CURATE_MESSAGES.noTip);
  const replierName = boundedText(b.replierName, QUESTION_LIMITS.replierName, 'Replier name');
  if (!replierName.ok) return replierName;
  return {
    ok: true,
    value: {
      question,
      detail: detail.value,
      answer,
      source: source.value,
      tags: tags.value,
      displayOnProfile: b.displayOnProfile ?? true,
      replierName: replierName.value || null,
    },
  };
}

/**
 * Issue 18: a curated Q&A an operator adds to an archive profile — the curate form's rules (`checkCurateDraft`), and
 * a source is required (the public page cites it under the answer).
 */
export function checkArchiveCurateDraft(body: unknown): Checked<CurateDraft> {
  const checked = checkCurateDraft(body);
  if (!checked.ok) return checked;
  if (!checked.value.source) return fail(OPS_MESSAGES.sourceRequired);
  return checked;
}

/** What an operator may change of an archive's curated Q&A: the answer, its tags and its (still required) source. */
export interface ArchiveCuratedEdit {
  answer: string;
  tags: string[];
  source: string;
}

export function checkArchiveCuratedEdit(body: unknown): Checked<ArchiveCuratedEdit> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const answer = text(b.answer);
  if (!answer) return fail(CURATE_MESSAGES.answerRequired);
  if (answer.length > QUESTION_LIMITS.answer) return fail(`Answer must be at most ${QUESTION_LIMITS.answer} characters`);
  const source = boundedText(b.source, QUESTION_LIMITS.source, 'Source');
  if (!source.ok) return source;
  if (!source.value) return fail(OPS_MESSAGES.sourceRequired);
  const tags = normalizeTags(b.tags);
  if (!tags.ok) return tags;
  return { ok: true, value: { answer, tags: tags.value, source: source.value } };
}

export interface AnswerDraft {
  answer: string;
  /** null: not sent (an edit keeps the current tags). */
  tags: string[] | null;
  /** null: not sent (a new answer shows on the profile, an edit keeps the current setting). */
  displayOnProfile: boolean | null;
  replierName: string | null;
  /** Spec §7: `skipNotify: true` marks an edit of an existing answer (no e-mail). */
  skipNotify: boolean;
  /** The question's public wording (issue 14), when the owner redacted it; null: not sent. */
  redaction: { question: string; detail: string } | null;
}

/** Spec §5 answer modal: the answer must not be blank. */
export function checkAnswerBody(body: unknown): Checked<AnswerDraft> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const answer = text(b.answer);
  if (!answer) return fail(ANSWER_MESSAGES.answerRequired);
  if (answer.length > QUESTION_LIMITS.answer)
    return fail(`Answer must be at most ${QUESTION_LIMITS.answer} characters`);
  let tags: string[] | null = null;
  if (b.tags !== undefined && b.tags !== null) {
    const checked = normalizeTags(b.tags);
    if (!checked.ok) return checked;
    tags = checked.value;
  }
  if (
    b.displayOnProfile !== undefined &&
    b.displayOnProfile !== null &&
    typeof b.displayOnProfile !== 'boolean'
  ) {
    return fail('displayOnProfile must be true or false');
  }
  const replierName = boundedText(b.replierName, QUESTION_LIMITS.replierName, 'Replier name');
  if (!replierName.ok) return replierName;
  let redaction: AnswerDraft['redaction'] = null;
  const publicQuestion = text(b.publicQuestion);
  if (publicQuestion) {
    if (publicQuestion.length > QUESTION_LIMITS.question)
      return fail(`Question title must be at most ${QUESTION_LIMITS.question} characters`);
    const publicDetail = boundedText(b.publicDetail, QUESTION_LIMITS.detail, 'Description');
    if (!publicDetail.ok) return publicDetail;
    redaction = { question: publicQuestion, detail: publicDetail.value };
  }
  return {
    ok: true,
    value: {
      answer,
      tags,
      displayOnProfile: typeof b.displayOnProfile === 'boolean' ? b.displayOnProfile : null,
      replierName: replierName.value || null,
      skipNotify: b.skipNotify === true,
      redaction,
    },
  };
}

export const PATCH_MESSAGES = {
  nothing: 'Send { displayOnProfile: true | false } or { deletedByReceiver: true }',
  noRestore: 'A deleted question cannot be restored',
} as const;

/** A question that does not exist, or that the caller may not see (a stranger cannot tell the two apart). */
export const QUESTION_NOT_FOUND = 'Question not found';

/** What the question's rules answer when an action is not allowed: 409 (its state), 403 (not yours), 422. */
export const QUESTION_MESSAGES = {
  exists: 'This question already exists.',
  withdrawn: 'This question was withdrawn by the asker.',
  deleted: 'This question was deleted.',
  withdrawnCannotAnswer: 'This question was withdrawn by the asker. It can no longer be answered.',
  deletedCannotAnswer: 'This question was deleted. It can no longer be answered.',
  alreadyAnswered: 'This question has already been answered.',
  notAnsweredYet: 'This question has not been answered yet, so there is no answer to edit.',
  alreadyDeleted: 'This question was already deleted.',
  alreadyWithdrawn: 'This question was already withdrawn.',
  answeredCannotWithdraw: 'This question has already been answered and can no longer be withdrawn.',
  deletedCannotWithdraw: 'This question was deleted by its recipient and can no longer be withdrawn.',
  onlyRecipient: 'Only the recipient of this question can do that.',
  onlyAsker: 'Only the person who asked this question can withdraw it.',
  onlyOwnCuration: 'You can only curate Q&A for your own profile.',
  publicListIsReceiver: 'The public list is role=receiver',
  invalidCursor: 'Invalid cursor',
  unknownAsker: 'The asker is not known. Please try again later.',
  tipMismatch: 'The authorized tip does not match this question.',
  captureWithoutAnswer: 'A tip can only be captured after the question is answered.',
  releaseAfterCapture: 'A captured tip cannot be released.',
} as const;

export type PatchQuestionRequest = { deletedByReceiver: true } | { displayOnProfile: boolean };

/** `PATCH /api/questions/:id`: `{ deletedByReceiver: true }` or `{ displayOnProfile }` (deletion wins if both). */
export function checkPatchBody(body: unknown): Checked<PatchQuestionRequest> {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (b.deletedByReceiver !== undefined) {
    return b.deletedByReceiver === true
      ? { ok: true, value: { deletedByReceiver: true } }
      : fail(PATCH_MESSAGES.noRestore);
  }
  if (typeof b.displayOnProfile === 'boolean')
    return { ok: true, value: { displayOnProfile: b.displayOnProfile } };
  return fail(PATCH_MESSAGES.nothing);
}

export const ZListQuestionsQuery = z.object({
  username: z.string().trim().toLowerCase().min(1).max(100).optional(),
  /** With `username`: only `receiver` (the public list). Without: `receiver` (inbox), `asker`, `curated`, or all. */
  role: z
    .enum(['receiver', 'asker', 'curated'], { error: 'role must be receiver, asker or curated' })
    .optional(),
  limit: z.coerce
    .number({ error: `limit must be between 1 and ${MAX_PAGE_SIZE}` })
    .int(`limit must be between 1 and ${MAX_PAGE_SIZE}`)
    .min(1, `limit must be between 1 and ${MAX_PAGE_SIZE}`)
    .max(MAX_PAGE_SIZE, `limit must be between 1 and ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});
export type ListQuestionsQuery = z.infer<typeof ZListQuestionsQuery>;

// ---- request schemas (the declarations in ./api/questions.ts) ----
//
// Types only: the spec's rules and their order live in the check functions above, which the service still calls, so
// the first message a person sees is the spec's. Every field the rules read is optional here (a missing title is the
// rule's "Question title is required", not a schema error); a field of the wrong JSON type is refused with a clear
// sentence. Unknown fields are dropped, as the spec's clients send more than the server reads.

const NOT_AN_OBJECT = 'The request body must be a JSON object.';
const textField = (label: string) => z.string({ error: `${label} must be text` }).nullish();
const flagField = (label: string) => z.boolean({ error: `${label} must be true or false` }).nullish();
const ZTagsField = z.array(z.string({ error: TAG_MESSAGES.notAList }), { error: TAG_MESSAGES.notAList }).nullish();

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
  /** @deprecated The former name of `amountCents` (cents), still accepted so payments and questions deploy in any order. */
  tipAmount: z.number({ error: ASK_MESSAGES.selectTip }).optional(),
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
export const ZTipStatus = z.enum(['none', 'awaiting_authorization', 'held', 'capturing', 'captured', 'released']);
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

// ---- integration events (ques.questions.*) ----

const ZTip = z.object({ amount: z.number().int().positive(), currency: z.string(), paymentRef: z.string() });
export type TipData = z.infer<typeof ZTip>;
const iso = z.iso.datetime({ offset: true });

/** Public subset: ids, times and money; no names, e-mails or text (other services do not need them). */
export const QuestionsEvents = {
  QuestionAsked: {
    version: 1,
    schema: z.object({
      questionId: z.uuid(),
      recipientUserId: z.uuid(),
      recipientUsername: z.string(),
      askerUserId: z.uuid().nullable(),
      /** Present when payments authorized a tip: it is held on the card until the answer or the deadline. */
      tip: ZTip.nullable(),
      askedAt: iso,
      answerDeadline: iso.nullable(),
    }),
  },
  QuestionCurated: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), recipientUserId: z.uuid(), curatedAt: iso }),
  },
  AnswerPosted: {
    version: 1,
    schema: z.object({
      questionId: z.uuid(),
      recipientUserId: z.uuid(),
      askerUserId: z.uuid().nullable(),
      answeredAt: iso,
      /** The held tip payments must capture now; null when there is none (free, or already released). */
      tipToCapture: ZTip.nullable(),
    }),
  },
  AnswerEdited: { version: 1, schema: z.object({ questionId: z.uuid(), editedAt: iso }) },
  QuestionVisibilityChanged: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), displayOnProfile: z.boolean(), changedAt: iso }),
  },
  QuestionDeletedByReceiver: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), deletedAt: iso, tipToRelease: ZTip.nullable() }),
  },
  QuestionWithdrawn: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), withdrawnAt: iso, tipToRelease: ZTip.nullable() }),
  },
  AnswerWindowExpired: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), deadline: iso, expiredAt: iso, tipToRelease: ZTip }),
  },
} as const;
export type QuestionsEventType = keyof typeof QuestionsEvents;

/**
 * ques.payments.* events the questions service consumes. Payments publishes these shapes (amounts in cents).
 * `TipAuthorized` turns a question submitted through checkout into a pending question.
 */
export const PaymentsEventsForQuestions = {
  TipAuthorized: {
    version: 1,
    schema: z.object({
      questionId: z.uuid(),
      paymentRef: z.string().min(1),
      amount: z.number().int().positive(),
      currency: z.string(),
      authorizedAt: iso,
    }),
  },
  TipCaptured: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), paymentRef: z.string().min(1), capturedAt: iso }),
  },
  TipRefunded: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), paymentRef: z.string().min(1), refundedAt: iso }),
  },
  /**
   * The checkout ended unpaid (abandoned on the provider's page, expired, or cancelled before the card went through):
   * the question that waited for it, invisible, goes — and nothing is held. Also published for a checkout payments
   * never recorded (its own start failed), so a question handed over for it does not wait forever.
   */
  CheckoutExpired: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), paymentRef: z.string().min(1), expiredAt: iso }),
  },
} as const;
