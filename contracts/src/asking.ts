import { z } from 'zod';
import { ASKING_LIMITS, ASKING_MESSAGES, DEVICE_TOKEN_PATTERN } from './core/asking.js';
import type { AskerBlock, AskingSettings, AskingStatus } from './core/asking.js';

/*
 * Owner control over asking (issue 16): the /api bodies and responses of the owner's settings and blocks, the public
 * status, and the internal screening call payments makes before it creates a checkout.
 */

export * from './core/asking.js';

export const ZAskingSettings = z.strictObject({
  pausedUntil: z.string().nullable(),
  pauseNote: z.string(),
  pendingCap: z.number().int().nullable(),
  blockedWords: z.array(z.string()),
  builtInFilter: z.boolean(),
  nudges: z.boolean(),
});

/** `PUT /api/asking/settings`: any subset; what is absent stays as it is. */
export const ZUpdateAskingSettingsBody = z.object({
  pausedUntil: z
    .string({ error: ASKING_MESSAGES.pausedUntilInvalid })
    .refine((v) => !Number.isNaN(Date.parse(v)), { error: ASKING_MESSAGES.pausedUntilInvalid })
    .nullish(),
  pauseNote: z.string({ error: ASKING_MESSAGES.noteTooLong }).max(ASKING_LIMITS.note, { error: ASKING_MESSAGES.noteTooLong }).nullish(),
  pendingCap: z
    .number({ error: ASKING_MESSAGES.capInvalid })
    .int({ error: ASKING_MESSAGES.capInvalid })
    .min(1, { error: ASKING_MESSAGES.capInvalid })
    .max(ASKING_LIMITS.capMax, { error: ASKING_MESSAGES.capInvalid })
    .nullish(),
  blockedWords: z
    .array(
      z
        .string({ error: ASKING_MESSAGES.filterTooLong })
        .max(ASKING_LIMITS.filterLength, { error: ASKING_MESSAGES.filterTooLong }),
      { error: ASKING_MESSAGES.tooManyFilters },
    )
    .max(ASKING_LIMITS.filterEntries, { error: ASKING_MESSAGES.tooManyFilters })
    .optional(),
  builtInFilter: z.boolean({ error: 'builtInFilter must be true or false' }).optional(),
  nudges: z.boolean({ error: 'nudges must be true or false' }).optional(),
});
export type UpdateAskingSettingsBody = z.infer<typeof ZUpdateAskingSettingsBody>;

export const ZAskingStatus = z.strictObject({
  accepting: z.boolean(),
  reason: z.enum(['paused', 'cap']).nullable(),
  pausedUntil: z.string().nullable(),
  note: z.string(),
});

export const ZUsernameParams = z.object({ username: z.string().max(200) });
export const ZBlockIdParams = z.object({ id: z.string().max(200) });

export const ZAskerBlock = z.strictObject({
  id: z.string(),
  label: z.string(),
  byAccount: z.boolean(),
  byEmail: z.boolean(),
  byDevice: z.boolean(),
  createdAt: z.string(),
});
export const ZAskerBlockList = z.array(ZAskerBlock);
export const ZLiftBlockResponse = z.strictObject({ message: z.literal('Block lifted') });

/** The device header as a route sees it (a malformed one is ignored, never an error). */
export const ZDeviceHeaders = z.object({ 'x-ques-device': z.string().optional() });
export const isDeviceToken = (value: unknown): value is string =>
  typeof value === 'string' && DEVICE_TOKEN_PATTERN.test(value);

/**
 * `POST /internal/questions/screen`: payments asks questions whether a question may be sent before it creates a
 * checkout (pause, cap, word filters, blocks, the guest limit). 200 `{ ok: true }`, or the refusal in the asker's words.
 */
export const ZScreenAskRequest = z.object({
  toUserId: z.string().max(200),
  question: z.string(),
  detail: z.string(),
  askerUserId: z.string().nullable(),
  /** A guest's typed e-mail (a signed-in asker's comes from their account). */
  askedEmail: z.string().nullable(),
  /** The browser's device token as sent (`X-Ques-Device`), or null. */
  device: z.string().nullable(),
  /** The client's address as the trusted proxy chain gave it (the guest limit's network bucket, ADR 0054). */
  network: z.string().max(100).nullish(),
  /** The question's id when it passes (payments' pre-generated one): where it came from is remembered, hashed. */
  questionId: z.string().max(200).nullish(),
});
export type ScreenAskRequest = z.infer<typeof ZScreenAskRequest>;
export const ZScreenAskResponse = z.strictObject({ ok: z.literal(true) });

// The zod schemas' types are the core's interfaces (checked here, so they cannot drift).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
export const askingTypesAgree: [
  Same<z.infer<typeof ZAskingSettings>, AskingSettings>,
  Same<z.infer<typeof ZAskingStatus>, AskingStatus>,
  Same<z.infer<typeof ZAskerBlock>, AskerBlock>,
] = [true, true, true];
