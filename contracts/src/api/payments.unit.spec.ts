import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkDonationAmount, PaymentsEvents, ZCheckoutSessionResponse, ZEarningsResponse } from '../index.js';
import { PaymentsEventsForQuestions } from '../questions.js';
import { API_CALLS, BROWSER_CALLS, paymentsApi, paymentsBrowserCalls, responseSchemas } from './index.js';

describe('the payments declarations', () => {
  it('lists every payments /api call once in API_CALLS, and the webhook and test-mode pages in BROWSER_CALLS', () => {
    const api = Object.values(paymentsApi);
    expect(api.every((c) => API_CALLS.includes(c) && c.service === 'payments')).toBe(true);
    expect(Object.values(paymentsBrowserCalls).every((c) => BROWSER_CALLS.includes(c))).toBe(true);
    const routes = [...API_CALLS, ...BROWSER_CALLS].map((c) => `${c.method} ${c.path}`);
    expect(new Set(routes).size).toBe(routes.length);
    expect(paymentsBrowserCalls.webhook).toMatchObject({ path: '/api/payments/webhook', bodyKind: 'raw' });
    expect(paymentsApi.createCheckoutSession.idempotent).toBe(true);
  });

  it('refuses a response with a field it does not declare (strict), and converts to JSON Schema for the docs', () => {
    const session = { sessionId: 'cs_1', paymentIntentId: null, url: 'https://x', questionId: 'q', message: 'ok' };
    expect(ZCheckoutSessionResponse.parse(session)).toEqual(session);
    expect(ZCheckoutSessionResponse.safeParse({ ...session, amount: 5 }).success).toBe(false);
    expect(
      ZEarningsResponse.safeParse({
        totals: { count: 0, amount: 0, applicationFee: 0, net: 0, currency: 'usd' },
        entries: [],
      }).success,
    ).toBe(true);
    for (const call of [...Object.values(paymentsApi), ...Object.values(paymentsBrowserCalls)])
      for (const schema of Object.values(responseSchemas(call))) expect(() => z.toJSONSchema(schema)).not.toThrow();
  });

  it('converts the /api dollars to cents once, and publishes CheckoutExpired in the shape questions reads', () => {
    expect(checkDonationAmount(5, ['$0', '$5'])).toEqual({ ok: true, value: 500 });
    expect(checkDonationAmount('$1000', ['Custom'])).toEqual({ ok: true, value: 100_000 });
    const expired = { questionId: '0b9f5c1e-6a59-4c3f-9a57-3c0a7d0f1a11', paymentRef: 'cs_1', expiredAt: '2026-11-22T10:00:00.000Z' };
    expect(PaymentsEventsForQuestions.CheckoutExpired.schema.parse(PaymentsEvents.CheckoutExpired.schema.parse(expired))).toEqual(expired);
  });
});
