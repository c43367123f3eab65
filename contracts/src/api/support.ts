import { z } from 'zod';
import { SUPPORT_REQUIRED_FIELDS } from '../core/support.js';
import { ZCaptchaChallenge, ZSupportSendRequest } from '../support.js';
import { defineCall } from './call.js';

/** The support context's /api calls (spec §7 "POST /api/support/send", plus the captcha challenge it needs). */
export const supportApi = {
  getCaptcha: defineCall({
    id: 'getSupportCaptcha',
    method: 'GET',
    path: '/api/support/captcha',
    service: 'support',
    summary: 'A proof-of-work captcha challenge (ALTCHA v2) to solve before sending a support request',
    auth: 'none',
    errors: { 429: ['Too many requests. Please try again in a moment.'] },
    schema: { response: { 200: ZCaptchaChallenge } },
  }),
  send: defineCall({
    id: 'sendSupportRequest',
    method: 'POST',
    path: '/api/support/send',
    service: 'support',
    summary: 'Send a support request (category, title, description, solved captcha)',
    description: 'The sender is whoever the bearer token says, or a guest; the body\'s userId is never trusted.',
    auth: 'optional',
    idempotent: true,
    errors: {
      400: [SUPPORT_REQUIRED_FIELDS, 'The captcha answer is not valid. Please solve the captcha again.'],
      429: ['Too many requests. Please try again in a moment.'],
    },
    schema: { body: ZSupportSendRequest, response: { 200: z.object({ success: z.literal(true) }) } },
  }),
} as const;
