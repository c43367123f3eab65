import { z } from 'zod';
import { QUESTION_MESSAGES as M, QUESTION_NOT_FOUND, ZQuestionIdParams } from '../questions.js';
import {
  ASKING_MESSAGES as AM,
  ZAskerBlock,
  ZAskerBlockList,
  ZAskingSettings,
  ZAskingStatus,
  ZBlockIdParams,
  ZLiftBlockResponse,
  ZUpdateAskingSettingsBody,
  ZUsernameParams,
} from '../asking.js';
import { STATUS_MESSAGES, ZQuestionStatusPage, ZStatusTokenParams } from '../question-status.js';
import { defineCall } from './call.js';

import { BAD_TOKEN, NO_TOKEN } from './kit-messages.js';
// The questions context's calls around asking: the owner's controls over who may ask (issue 16) and the asker's
// status link (issue 14). Part of `questionsApi` (./questions.ts), in its order.

/** Owner control over asking (issue 16). */
export const askingControlCalls = {
  askingStatus: defineCall({
    id: 'getAskingStatus',
    method: 'GET',
    path: '/api/asking/status/:username',
    service: 'questions',
    summary: 'Whether a profile takes questions now (paused until a date, or at its cap of open questions)',
    description:
      'The public page shows this in place of the ask button. A pause whose date has passed is over.',
    auth: 'none',
    errors: { 404: ['User not found'] },
    schema: { params: ZUsernameParams, response: { 200: ZAskingStatus } },
  }),
  askingSettings: defineCall({
    id: 'getAskingSettings',
    method: 'GET',
    path: '/api/asking/settings',
    service: 'questions',
    summary: "The caller's own asking settings: pause, cap, blocked words, built-in filter, nudges",
    auth: 'required',
    errors: { 401: [NO_TOKEN, BAD_TOKEN] },
    schema: { response: { 200: ZAskingSettings } },
  }),
  updateAskingSettings: defineCall({
    id: 'updateAskingSettings',
    method: 'PUT',
    path: '/api/asking/settings',
    service: 'questions',
    summary: 'Change any of the asking settings (absent fields stay as they are)',
    description:
      '`pausedUntil: null` resumes at once; `pendingCap: null` removes the cap; `blockedWords` replaces the list ' +
      '(at most 500 entries of at most 100 characters).',
    auth: 'required',
    errors: {
      400: [
        AM.tooManyFilters,
        AM.filterTooLong,
        AM.filterEmpty,
        AM.noteTooLong,
        AM.pausedUntilInvalid,
        AM.capInvalid,
      ],
      401: [NO_TOKEN, BAD_TOKEN],
    },
    schema: { body: ZUpdateAskingSettingsBody, response: { 200: ZAskingSettings } },
  }),
  listBlocks: defineCall({
    id: 'listAskerBlocks',
    method: 'GET',
    path: '/api/asking/blocks',
    service: 'questions',
    summary: "The caller's blocked askers, newest first",
    auth: 'required',
    errors: { 401: [NO_TOKEN, BAD_TOKEN] },
    schema: { response: { 200: ZAskerBlockList } },
  }),
  blockAsker: defineCall({
    id: 'blockAsker',
    method: 'POST',
    path: '/api/questions/:id/block',
    service: 'questions',
    summary: "Block the asker of a question you received (their account, e-mail and browser's device token)",
    description:
      'Their next question or checkout to you is refused with a neutral message before any card is held. ' +
      'Blocking the same asker again answers with the block that exists.',
    auth: 'required',
    errors: {
      401: [NO_TOKEN, BAD_TOKEN],
      403: [AM.notYours],
      404: [QUESTION_NOT_FOUND],
      422: [AM.cannotBlockSelf],
    },
    schema: { params: ZQuestionIdParams, body: z.object({}).nullish(), response: { 201: ZAskerBlock } },
  }),
  liftBlock: defineCall({
    id: 'liftAskerBlock',
    method: 'DELETE',
    path: '/api/asking/blocks/:id',
    service: 'questions',
    summary: 'Lift one of your blocks',
    auth: 'required',
    errors: { 401: [NO_TOKEN, BAD_TOKEN], 404: [AM.blockNotFound] },
    schema: { params: ZBlockIdParams, response: { 200: ZLiftBlockResponse } },
  }),
};

/** The asker's status link: the page, confirming it, withdrawing through it (issue 14). */
export const statusLinkCalls = {
  statusPage: defineCall({
    id: 'getQuestionStatusPage',
    method: 'GET',
    path: '/api/question-status/:token',
    service: 'questions',
    summary: "A question's private status page, for whoever holds its link (no account)",
    description:
      'The question, to whom (with their avatar and brand colours), its status, the tip (held / charged / released, ' +
      'the automatic release date), the timeline of what happened with its times, the answer even when it is not ' +
      'public and the public answer page while it is public. `Confirming`: the link the browser made at checkout, ' +
      'before the provider authorized the card (issue 28). An unknown or malformed token is a 404; no other question ' +
      'is reachable.',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 404: [STATUS_MESSAGES.notFound] },
    schema: { params: ZStatusTokenParams, response: { 200: ZQuestionStatusPage } },
  }),
  confirmStatusLink: defineCall({
    id: 'confirmQuestionStatusLink',
    method: 'POST',
    path: '/api/question-status/:token/confirm',
    service: 'questions',
    summary: "Opening the link confirms the guest's e-mail address (the page calls it when it loads)",
    description:
      'Answer e-mails (which contain the answer) go to a guest only once their address is confirmed; an answer ' +
      'posted before is mailed now. Calling it again changes nothing.',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 404: [STATUS_MESSAGES.notFound] },
    schema: {
      params: ZStatusTokenParams,
      body: z.object({}).nullish(),
      response: { 200: ZQuestionStatusPage },
    },
  }),
  withdrawByStatusLink: defineCall({
    id: 'withdrawQuestionByStatusLink',
    method: 'POST',
    path: '/api/question-status/:token/withdraw',
    service: 'questions',
    summary: 'Withdraw the pending question of this status page (releases a held tip)',
    description: 'The same withdrawal as `DELETE /api/questions/:id`, for whoever holds the link.',
    auth: 'none',
    rateLimit: 'auth',
    errors: {
      404: [STATUS_MESSAGES.notFound],
      409: [M.alreadyWithdrawn, M.answeredCannotWithdraw, M.deletedCannotWithdraw],
    },
    schema: {
      params: ZStatusTokenParams,
      body: z.object({}).nullish(),
      response: { 200: ZQuestionStatusPage },
    },
  }),
};
