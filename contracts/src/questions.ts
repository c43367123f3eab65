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
import { PATCH_MESSAGES } from './questions-schemas.js';
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
  if (answer.length > QUESTION_LIMITS.answer)
    return fail(`Answer must be at most ${QUESTION_LIMITS.answer} characters`);
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

export * from './questions-schemas.js';
export * from './questions-events.js';
