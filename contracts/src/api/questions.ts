import { z } from 'zod';
import { ANSWER_MESSAGES, ASK_MESSAGES, CURATE_MESSAGES, TAG_MESSAGES } from '../core/question-rules.js';
import { MAX_PAGE_SIZE } from '../core/questions.js';
import { IDENTITY_MESSAGES } from '../core/identity.js';
import {
  PATCH_MESSAGES,
  QUESTION_MESSAGES as M,
  QUESTION_NOT_FOUND,
  ZAnswerQuestionBody,
  ZAskQuestionBody,
  ZListQuestionsQuery,
  ZPatchQuestionBody,
  ZQuestion,
  ZQuestionIdParams,
  ZQuestionView,
  ZQuestionWithdrawnResponse,
  ZSubmitTippedQuestionRequest,
} from '../questions.js';
import { ASKING_MESSAGES as AM, ZScreenAskRequest, ZScreenAskResponse, ZUsernameParams } from '../asking.js';
import {
  STATUS_MESSAGES,
  ZSimilarAnswers,
  ZSimilarAnswersQuery,
  ZStatusLinkResponse,
} from '../question-status.js';
import { defineCall, defineInternalCall } from './call.js';
import { askingControlCalls, statusLinkCalls } from './questions-asking.js';

import {
  BAD_TOKEN,
  IDEMPOTENCY_IN_FLIGHT,
  IDEMPOTENCY_GUEST_DEVICE,
  IDEMPOTENCY_KEY,
  IDEMPOTENCY_MISMATCH,
  NO_TOKEN,
  TOO_MANY,
} from './kit-messages.js';
/** Refusals in the asker's words, with the owner's name filled in (issue 16). */
const REFUSALS = [
  AM.refused('{name}'),
  AM.paused('{name}', '2026-01-01T00:00:00Z').replace('January 1, 2026', '{date}'),
  AM.atCap('{name}'),
];
const GUEST_LIMIT = AM.guestLimit('{name}');

/**
 * The ask form's 400s in the order spec §5 rules 1–7 check them: what asking (free) and the checkout (tipped) both
 * answer before anything else.
 */
export const ASK_RULE_ERRORS = [
  ASK_MESSAGES.titleRequired,
  ASK_MESSAGES.mustAgree,
  ASK_MESSAGES.nameAndEmail,
  ASK_MESSAGES.invalidEmail,
  IDENTITY_MESSAGES.nameControl,
  ASK_MESSAGES.recipientMissing,
  ASK_MESSAGES.recipientEmailMissing,
  ASK_MESSAGES.selectTip,
  ASK_MESSAGES.penny,
] as const;

/** The questions context's /api calls (spec §7 "Questions"). */
export const questionsApi = {
  list: defineCall({
    id: 'listQuestions',
    method: 'GET',
    path: '/api/questions',
    service: 'questions',
    summary: "A profile's public answers (`username`), or the caller's own questions (token)",
    description:
      'With `username` (and `role=receiver`): answered, shown, not deleted questions addressed to that profile, newest ' +
      'first, public fields only. Without `username` a token is required: `role=receiver` is the inbox, `asker` the ' +
      'questions asked by the account (and as a guest with its verified e-mail), `curated` the curated Q&A, none all ' +
      `three merged. An array of at most \`limit\` (default and max ${MAX_PAGE_SIZE}); the next page's cursor is in ` +
      'the `x-next-cursor` response header.',
    auth: 'optional',
    errors: {
      400: [
        M.publicListIsReceiver,
        M.invalidCursor,
        'role must be receiver, asker or curated',
        `limit must be between 1 and ${MAX_PAGE_SIZE}`,
      ],
      401: [NO_TOKEN, BAD_TOKEN],
    },
    schema: { querystring: ZListQuestionsQuery, response: { 200: z.array(ZQuestionView) } },
  }),
  ask: defineCall({
    id: 'askQuestion',
    method: 'POST',
    path: '/api/questions',
    service: 'questions',
    summary:
      'Ask a free question (guest or signed in), or curate a Q&A for your own profile (`isCurated: true`)',
    description:
      "Spec §5 ask rules 1–7 in order; a signed-in asker's name and e-mail come from the account, never from the " +
      'body. A tip above 0 goes through `POST /api/checkout/create-checkout-session` instead. `isCurated: true` needs ' +
      "the owner's token and creates an answered Q&A (`displayOnProfile` defaults to true). An `Idempotency-Key` " +
      'makes a retry answer with the question the first attempt created.',
    auth: 'optional',
    rateLimit: 'auth',
    idempotent: true,
    errors: {
      400: [
        ...ASK_RULE_ERRORS,
        CURATE_MESSAGES.titleRequired,
        CURATE_MESSAGES.answerRequired,
        CURATE_MESSAGES.noTip,
        TAG_MESSAGES.notAList,
        IDEMPOTENCY_KEY,
        IDEMPOTENCY_GUEST_DEVICE,
      ],
      401: [NO_TOKEN, BAD_TOKEN],
      403: [M.onlyOwnCuration],
      409: [M.exists, IDEMPOTENCY_IN_FLIGHT],
      422: [
        ...REFUSALS,
        ASK_MESSAGES.archiveProfile,
        ASK_MESSAGES.tipNeedsCheckout,
        ASK_MESSAGES.tipTooLarge,
        IDEMPOTENCY_MISMATCH,
      ],
      429: [TOO_MANY, GUEST_LIMIT],
    },
    schema: { body: ZAskQuestionBody, response: { 201: ZQuestion } },
  }),
  get: defineCall({
    id: 'getQuestion',
    method: 'GET',
    path: '/api/questions/:id',
    service: 'questions',
    summary:
      'One question: the public view when answered and shown, the full record for its asker and recipient',
    description:
      'Anything else — pending, hidden, deleted, withdrawn, or not there — is the same 404 for a stranger.',
    auth: 'optional',
    errors: { 401: [BAD_TOKEN], 404: [QUESTION_NOT_FOUND] },
    schema: { params: ZQuestionIdParams, response: { 200: ZQuestionView } },
  }),
  answer: defineCall({
    id: 'answerQuestion',
    method: 'PUT',
    path: '/api/questions/:id/answer',
    service: 'questions',
    summary:
      'Answer a question you received (or, with `skipNotify: true`, edit your answer without an e-mail)',
    description:
      "Recipient only. `displayOnProfile` defaults to true; `replierName` to the recipient's name. Answering a " +
      'tipped question captures its held tip. Sending the same answer again changes nothing.',
    auth: 'required',
    idempotent: true,
    errors: {
      400: [
        ANSWER_MESSAGES.answerRequired,
        ANSWER_MESSAGES.invalidQuestionId,
        TAG_MESSAGES.notAList,
        IDEMPOTENCY_KEY,
      ],
      401: [NO_TOKEN, BAD_TOKEN],
      403: [M.onlyRecipient],
      404: [QUESTION_NOT_FOUND],
      409: [
        M.alreadyAnswered,
        M.withdrawnCannotAnswer,
        M.deletedCannotAnswer,
        M.notAnsweredYet,
        IDEMPOTENCY_IN_FLIGHT,
      ],
      422: [IDEMPOTENCY_MISMATCH],
    },
    schema: { params: ZQuestionIdParams, body: ZAnswerQuestionBody, response: { 200: ZQuestion } },
  }),
  update: defineCall({
    id: 'updateQuestion',
    method: 'PATCH',
    path: '/api/questions/:id',
    service: 'questions',
    summary:
      'Show or hide a question on your profile (`displayOnProfile`), or delete it (`deletedByReceiver: true`)',
    description: 'Recipient only. Deleting a pending tipped question releases its held tip.',
    auth: 'required',
    errors: {
      400: [PATCH_MESSAGES.nothing, PATCH_MESSAGES.noRestore],
      401: [NO_TOKEN, BAD_TOKEN],
      403: [M.onlyRecipient],
      404: [QUESTION_NOT_FOUND],
      409: [M.withdrawn, M.deleted, M.alreadyDeleted],
    },
    schema: { params: ZQuestionIdParams, body: ZPatchQuestionBody, response: { 200: ZQuestion } },
  }),
  withdraw: defineCall({
    id: 'withdrawQuestion',
    method: 'DELETE',
    path: '/api/questions/:id',
    service: 'questions',
    summary: 'Withdraw a pending question you asked',
    description:
      "Asker only (the account that asked it, or a guest question asked with the account's verified e-mail). " +
      'Withdrawing a tipped question releases its held tip.',
    auth: 'required',
    errors: {
      401: [NO_TOKEN, BAD_TOKEN],
      403: [M.onlyAsker],
      404: [QUESTION_NOT_FOUND],
      409: [M.alreadyWithdrawn, M.answeredCannotWithdraw, M.deletedCannotWithdraw],
    },
    schema: { params: ZQuestionIdParams, response: { 200: ZQuestionWithdrawnResponse } },
  }),
  // owner control over asking (issue 16)
  ...askingControlCalls,
  // the asker's status link (issue 14)
  ...statusLinkCalls,
  similarAnswers: defineCall({
    id: 'listSimilarAnswers',
    method: 'GET',
    path: '/api/asking/similar/:username',
    service: 'questions',
    summary:
      '"Already answered?": up to 3 of the owner\'s public answers matching `q` (title and answer text)',
    description:
      'Ranked full-text search (English stemming, word prefixes) over answered, shown, not deleted, not private ' +
      'questions of that owner only; public fields only. Fewer than 3 characters of words: an empty list.',
    auth: 'none',
    rateLimit: 'auth',
    errors: {},
    schema: {
      params: ZUsernameParams,
      querystring: ZSimilarAnswersQuery,
      response: { 200: ZSimilarAnswers },
    },
  }),
  statusLink: defineCall({
    id: 'createQuestionStatusLink',
    method: 'POST',
    path: '/api/questions/:id/status-link',
    service: 'questions',
    summary: "A signed-in asker's link to the status page of a question they asked (from Questions Asked)",
    description: 'Asker only. Each call makes a new link; earlier ones keep working.',
    auth: 'required',
    errors: { 401: [NO_TOKEN, BAD_TOKEN], 403: [STATUS_MESSAGES.onlyAsker], 404: [QUESTION_NOT_FOUND] },
    schema: {
      params: ZQuestionIdParams,
      body: z.object({}).nullish(),
      response: { 200: ZStatusLinkResponse },
    },
  }),
} as const;

/**
 * Calls between services, never routed by the BFF nor listed in `API_CALLS`: payments hands a tipped question to
 * questions while the asker is at checkout.
 */
export const questionsInternalCalls = {
  submitTipped: defineInternalCall({
    id: 'submitTippedQuestion',
    method: 'POST',
    path: '/internal/questions/tipped',
    service: 'questions',
    summary:
      'Payments hands over a tipped question when checkout starts (kept "awaiting payment" until TipAuthorized)',
    description:
      "The question payload is checked with the ask rules (the asker sees the spec's message), the tip with rules 6–7 " +
      'in cents. Calling again with the same questionId, paymentRef and amount answers 200 and changes nothing.',
    errors: {
      400: [
        ASK_MESSAGES.titleRequired,
        ASK_MESSAGES.recipientMissing,
        ASK_MESSAGES.selectTip,
        ASK_MESSAGES.penny,
      ],
      409: [M.exists],
      422: [ASK_MESSAGES.archiveProfile, ASK_MESSAGES.tipTooLarge, M.unknownAsker],
    },
    schema: {
      body: ZSubmitTippedQuestionRequest,
      response: { 200: ZQuestion, 201: ZQuestion },
    },
  }),
  screen: defineInternalCall({
    id: 'screenQuestion',
    method: 'POST',
    path: '/internal/questions/screen',
    service: 'questions',
    summary: 'Payments asks whether a question may be sent, before it creates a checkout (issue 16)',
    description:
      "The owner's pause and cap, word filters and blocks, and the guest limit per device: 200 `{ ok: true }`, or " +
      'the refusal the asker sees. Nothing is stored.',
    errors: { 400: [ASK_MESSAGES.recipientMissing], 422: REFUSALS, 429: [GUEST_LIMIT] },
    schema: { body: ZScreenAskRequest, response: { 200: ZScreenAskResponse } },
  }),
} as const;
