import type { CaptchaChallenge, ReportRequest, SupportSendRequest, SupportSendResponse } from '@ques/contracts/core';
import { api } from '../../lib/api';

/** A fresh proof-of-work challenge; fetched when Send needs one, never cached (single use, it expires). */
export const fetchCaptchaChallenge = (signal?: AbortSignal) =>
  api.json<CaptchaChallenge>('/api/support/captcha', { signal });

/** Spec §7 `POST /api/support/send`; `{ success: false }` is a failure too. */
export const sendSupportRequest = (request: SupportSendRequest) =>
  api.json<SupportSendResponse | { success: false }>('/api/support/send', { method: 'POST', body: request, idempotent: true });

/** Issue 18: report an answer or a profile (guests send a solved captcha). */
export const sendReport = (request: ReportRequest) =>
  api.json<{ success: true }>('/api/reports', { method: 'POST', body: request, idempotent: true });
