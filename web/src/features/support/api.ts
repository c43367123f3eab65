import { api } from '../../lib/api';
import type { CaptchaChallenge } from './captcha';

/** Spec §3: support categories, the first is the default. */
export const SUPPORT_CATEGORIES = ['Technical Issue', 'Billing Issue', 'Account Issue', 'Feature Request', 'Other'] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

/** Spec §7 `POST /api/support/send` payload. */
export interface SupportRequest {
  category: SupportCategory;
  title: string;
  description: string;
  captchaToken: string;
  userId?: string | undefined;
}

/** A fresh proof-of-work challenge; fetched when Send needs one, never cached (single use, it expires). */
export const fetchCaptchaChallenge = (signal?: AbortSignal) =>
  api.json<CaptchaChallenge>('/api/support/captcha', { signal });

export const sendSupportRequest = (request: SupportRequest) =>
  api.json<{ success?: boolean }>('/api/support/send', { method: 'POST', body: request });
