import type { CaptchaChallenge, ReportRequest, SupportSendRequest, SupportSendResponse } from '@ques/contracts/core';
import { api } from '../../lib/api';
import { deviceHeaders } from '../../lib/device';

/** A fresh proof-of-work challenge; fetched when Send needs one, never cached (single use, it expires). */
export const fetchCaptchaChallenge = (signal?: AbortSignal) =>
  api.json<CaptchaChallenge>('/api/support/captcha', { signal });

/**
 * Spec §7 `POST /api/support/send`; `{ success: false }` is a failure too. Like a report, it carries the device token:
 * a guest's Idempotency-Key is scoped to it (ADR 0054), so without it a guest's request is refused.
 */
export const sendSupportRequest = (request: SupportSendRequest) =>
  api.json<SupportSendResponse | { success: false }>('/api/support/send', { method: 'POST', body: request, headers: deviceHeaders(), idempotent: true });

/** Issue 18: report an answer or a profile (guests send a solved captcha). */
export const sendReport = (request: ReportRequest) =>
  api.json<{ success: true }>('/api/reports', { method: 'POST', body: request, headers: deviceHeaders(), idempotent: true });
