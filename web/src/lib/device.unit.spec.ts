import { afterEach, describe, expect, it } from 'vitest';
import { DEVICE_STORAGE_KEY, type ReportRequest, type SupportSendRequest } from '@ques/contracts/core';
import { createCheckoutSession, postQuestion, type QuestionPayload } from '../features/ask/api';
import { fetchCaptchaChallenge, sendReport, sendSupportRequest } from '../features/support/api';
import { json, mockFetch } from '../test/fetch-mock';
import { deviceToken } from './device';

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  localStorage.clear();
});

describe('the device token (issue 16)', () => {
  it('is a random id made once and kept in localStorage', () => {
    const first = deviceToken();
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(localStorage.getItem(DEVICE_STORAGE_KEY)).toBe(first);
    expect(deviceToken()).toBe(first);
    localStorage.clear();
    expect(deviceToken()).not.toBe(first);
  });

  it('travels as X-Ques-Device with an ask, a checkout, a support request and a report (a guest key is scoped to it)', async () => {
    const mock = mockFetch({
      'POST /api/questions': () => json({}, { status: 201 }),
      'POST /api/checkout/create-checkout-session': () => json({ url: 'x' }),
      'POST /api/support/send': () => json({ success: true }),
      'POST /api/reports': () => json({ success: true }),
      'GET /api/support/captcha': () => json({}),
    });
    restore = mock.restore;
    const payload = { question: 'Q?', toUserId: 'u1' } as QuestionPayload;
    await postQuestion(payload);
    await createCheckoutSession(5, 'guest', payload);
    await sendSupportRequest({} as SupportSendRequest);
    await sendReport({} as ReportRequest);
    await fetchCaptchaChallenge();
    const token = deviceToken();
    expect(mock.calls.map((c) => c.headers['x-ques-device'])).toEqual([token, token, token, token, undefined]);
  });
});
