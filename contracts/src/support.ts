import { z } from 'zod';
import { DEFAULT_SUPPORT_CATEGORY, SUPPORT_CATEGORIES, SUPPORT_LIMITS, SUPPORT_REQUIRED_FIELDS } from './core/support.js';

// Categories, limits and the spec's message live in ./core/support.ts (zod-free: the browser imports them from there).
export * from './core/support.js';

const required = (max: number, label: string) =>
  z
    .string({ error: SUPPORT_REQUIRED_FIELDS })
    .trim()
    .min(1, SUPPORT_REQUIRED_FIELDS)
    .max(max, `${label} must be at most ${max} characters`);

/**
 * `POST /api/support/send`. `userId` is in the spec's payload but never trusted: the sender is whoever the bearer
 * token says, or a guest. `captchaToken` is the base64 ALTCHA payload (challenge + solution); the service checks it.
 */
export const ZSupportSendRequest = z.object({
  category: z
    .enum(SUPPORT_CATEGORIES, { error: 'Please choose a support category.' })
    .default(DEFAULT_SUPPORT_CATEGORY),
  title: required(SUPPORT_LIMITS.title, 'Title'),
  description: required(SUPPORT_LIMITS.description, 'Description'),
  captchaToken: z
    .string()
    .max(SUPPORT_LIMITS.captchaToken, 'The captcha answer is not valid. Please solve the captcha again.')
    .optional(),
  userId: z.unknown().optional(),
});
export type SupportSendRequest = z.infer<typeof ZSupportSendRequest>;

export interface SupportSendResponse {
  success: true;
}

/**
 * `GET /api/support/captcha`: an ALTCHA (v2) proof-of-work challenge, HMAC-signed by the support service. The client
 * solves it (altcha-lib `solveChallenge` / the ALTCHA widget) and sends `btoa(JSON.stringify({ challenge, solution }))`
 * as `captchaToken`.
 */
export const ZCaptchaChallenge = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().optional(),
  }),
  signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof ZCaptchaChallenge>;

// ---- integration events (ques.support.*) ----

/**
 * The public subset of a support request: who and what kind, never the free text (it can hold anything, and only the
 * support inbox needs it).
 */
export const ZSupportRequestedV1 = z.object({
  requestId: z.uuid(),
  category: z.enum(SUPPORT_CATEGORIES),
  /** The signed-in sender, or null for a guest. */
  userId: z.string().nullable(),
  requestedAt: z.iso.datetime({ offset: true }),
});
export type SupportRequestedV1 = z.infer<typeof ZSupportRequestedV1>;

export const SupportEvents = {
  SupportRequested: { version: 1, schema: ZSupportRequestedV1 },
} as const;
export type SupportEventType = keyof typeof SupportEvents;
