import { z } from 'zod';
import { PAYMENT_MESSAGES } from '../core/payments.js';
import { defineCall } from './call.js';

/*
 * Calls the BFF forwards that are not JSON calls of the web app's client: files and pages a browser loads by
 * address, the payment provider's webhook and the test-mode provider's hosted pages (plain HTML forms). Their bodies
 * travel unparsed (`bodyKind: 'raw'`), so their schemas describe rather than validate them.
 */

/** An HTML page, a file or an opaque body: what these routes answer besides their errors. */
const ZHtml = z.string().meta({ description: 'An HTML page', contentMediaType: 'text/html' });
const ZFile = z.string().meta({ description: 'The image file', format: 'binary' });
const ZRawBody = z
  .unknown()
  .meta({ description: 'Forwarded byte for byte with its content type (never parsed by the BFF)' });
const ZPageParams = z.object({ id: z.string().max(200) });
const ZOnboardingParams = z.object({ accountId: z.string().max(200) });

export const browserCalls = {
  avatarImage: defineCall({
    id: 'getAvatarImage',
    method: 'GET',
    path: '/images/avatars/:userId/:file',
    service: 'identity',
    summary: "A profile's avatar image (the `avatarUrl` of a user or public profile)",
    auth: 'none',
    errors: { 404: ['Not found'] },
    schema: {
      params: z.object({ userId: z.string().max(200), file: z.string().max(200) }),
      response: { 200: ZFile },
    },
  }),
  paymentsWebhook: defineCall({
    id: 'receivePaymentWebhook',
    method: 'POST',
    path: '/api/payments/webhook',
    service: 'payments',
    summary: "The payment provider's webhook (signed: `Stripe-Signature` covers the exact bytes)",
    auth: 'none',
    bodyKind: 'raw',
    errors: { 400: [PAYMENT_MESSAGES.invalidSignature] },
    schema: {
      body: ZRawBody,
      response: { 200: z.object({ received: z.literal(true), duplicate: z.boolean() }) },
    },
  }),
  testCheckoutPage: defineCall({
    id: 'testModeCheckoutPage',
    method: 'GET',
    path: '/pay/test/checkout/:id',
    service: 'payments',
    summary: "The test-mode provider's hosted checkout page",
    auth: 'none',
    errors: { 404: ['Not found'] },
    schema: { params: ZPageParams, response: { 200: ZHtml } },
  }),
  testCheckoutPay: defineCall({
    id: 'testModeCheckoutPay',
    method: 'POST',
    path: '/pay/test/checkout/:id/pay',
    service: 'payments',
    summary: 'Pays a test-mode checkout (an HTML form post); redirects back to the app',
    auth: 'none',
    bodyKind: 'raw',
    errors: { 404: ['Not found'] },
    schema: { params: ZPageParams, body: ZRawBody, response: { 303: z.null() } },
  }),
  testCheckoutCancel: defineCall({
    id: 'testModeCheckoutCancel',
    method: 'POST',
    path: '/pay/test/checkout/:id/cancel',
    service: 'payments',
    summary: 'Abandons a test-mode checkout (an HTML form post); redirects back to the app',
    auth: 'none',
    bodyKind: 'raw',
    errors: { 404: ['Not found'] },
    schema: { params: ZPageParams, body: ZRawBody, response: { 303: z.null() } },
  }),
  testOnboardingPage: defineCall({
    id: 'testModeOnboardingPage',
    method: 'GET',
    path: '/pay/test/onboarding/:accountId',
    service: 'payments',
    summary: "The test-mode provider's hosted payout-account onboarding page",
    auth: 'none',
    errors: { 404: ['Not found'] },
    schema: { params: ZOnboardingParams, response: { 200: ZHtml } },
  }),
  testOnboardingComplete: defineCall({
    id: 'testModeOnboardingComplete',
    method: 'POST',
    path: '/pay/test/onboarding/:accountId/complete',
    service: 'payments',
    summary: 'Completes a test-mode onboarding (an HTML form post); redirects back to the app',
    auth: 'none',
    bodyKind: 'raw',
    errors: { 404: ['Not found'] },
    schema: { params: ZOnboardingParams, body: ZRawBody, response: { 303: z.null() } },
  }),
} as const;
