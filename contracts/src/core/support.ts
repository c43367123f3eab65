/*
 * The zod-free part of the support context. Re-exported by `../support.ts` and by `@ques/contracts/core`.
 */

/** Spec §3: the support modal's categories; the first is the default. */
export const SUPPORT_CATEGORIES = [
  'Technical Issue',
  'Billing Issue',
  'Account Issue',
  'Feature Request',
  'Other',
] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];
export const DEFAULT_SUPPORT_CATEGORY: SupportCategory = 'Technical Issue';

export const SUPPORT_LIMITS = {
  title: 200,
  description: 5000,
  /** A base64 ALTCHA payload is ~600 characters; anything far larger is not one. */
  captchaToken: 4096,
} as const;

/** Spec §5 wording. */
export const SUPPORT_REQUIRED_FIELDS = 'Please fill in all required fields.';
