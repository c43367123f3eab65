import { z } from 'zod';
import { ASK_MESSAGES } from '../core/question-rules.js';
import { MAX_PAGE_SIZE } from '../core/questions.js';
import {
  PAYMENT_MESSAGES as P,
  ZAccountStatusResponse,
  ZCheckoutSessionResponse,
  ZConnectRequest,
  ZConnectResponse,
  ZCreateCheckoutSessionRequest,
  ZEarningsQuery,
  ZEarningsResponse,
  ZNoBody,
  ZPaymentActionResponse,
  ZPaymentQuestionParams,
  ZSaveTipOptionsRequest,
  ZSaveTipOptionsResponse,
  ZTipOptionsResponse,
  ZUserIdQuery,
} from '../payments.js';
import { defineCall } from './call.js';
import { ASK_RULE_ERRORS } from './questions.js';
import {
  BAD_TOKEN,
  IDEMPOTENCY_IN_FLIGHT,
  IDEMPOTENCY_GUEST_DEVICE,
  IDEMPOTENCY_KEY,
  IDEMPOTENCY_MISMATCH,
  NO_TOKEN,
  TOO_MANY,
} from './kit-messages.js';

const USER_ID = 'userId must be a user id';
const AUTH = { 401: [NO_TOKEN, BAD_TOKEN] } as const;

/** The payments context's /api calls (spec §7 "Payments" and "Checkout"). Amounts in the ledger are cents. */
export const paymentsApi = {
  getTipOptions: defineCall({
    id: 'getTipOptions',
    method: 'GET',
    path: '/api/payments/tipOptions',
    service: 'payments',
    summary: "A profile's tip options, and whether it accepts tips now",
    description:
      '`tippingEnabled` is true only when the owner turned tipping on and can be paid (payout account completed, ' +
      'profile not an archive). Without saved options, the defaults ($0, $5, $25, $50, Custom).',
    auth: 'none',
    errors: { 400: [USER_ID] },
    schema: { querystring: ZUserIdQuery, response: { 200: ZTipOptionsResponse } },
  }),
  saveTipOptions: defineCall({
    id: 'saveTipOptions',
    method: 'PUT',
    path: '/api/payments/tipOptions',
    service: 'payments',
    summary: 'Save your tip options and turn tipping on or off',
    description:
      'Spec §5: at most 5 options from the allowed list, no duplicates, $0 always there. Without `tipOptions` only ' +
      'the switch changes (the saved options stay): the tipping switch saves on its own.',
    auth: 'required',
    errors: {
      400: [P.invalidOption, P.tooManyOptions, P.zeroRequired, P.duplicateOption, P.tippingNotBoolean],
      ...AUTH,
      403: [P.onlyOwner],
      422: [P.setUpFirst, P.completeFirst],
    },
    schema: { body: ZSaveTipOptionsRequest, response: { 200: ZSaveTipOptionsResponse } },
  }),
  connect: defineCall({
    id: 'connectPayoutAccount',
    method: 'POST',
    path: '/api/payments/connect',
    service: 'payments',
    summary: 'Create your payout account (once) and get a link to its onboarding page',
    auth: 'required',
    errors: {
      400: [P.invalidCountry, P.chooseCountry],
      ...AUTH,
      403: [P.onlyOwner],
      409: ['A different payout account is already linked to this profile.'],
      503: [P.connectFailed],
    },
    schema: { body: ZConnectRequest, response: { 200: ZConnectResponse } },
  }),
  accountStatus: defineCall({
    id: 'getPayoutAccountStatus',
    method: 'GET',
    path: '/api/payments/account-status',
    service: 'payments',
    summary: 'Your payout account and its onboarding status',
    description: 'An account not yet complete is re-read from the provider first.',
    auth: 'required',
    errors: { 400: [USER_ID], ...AUTH, 403: [P.onlyOwner] },
    schema: { querystring: ZUserIdQuery, response: { 200: ZAccountStatusResponse } },
  }),
  earnings: defineCall({
    id: 'getEarnings',
    method: 'GET',
    path: '/api/payments/earnings',
    service: 'payments',
    summary: 'Your earnings: one ledger entry per captured tip (cents), newest first, and the totals',
    description: `At most \`limit\` entries (default and max ${MAX_PAGE_SIZE}); the next page's cursor is in the \`x-next-cursor\` response header.`,
    auth: 'required',
    errors: { 400: [`limit must be between 1 and ${MAX_PAGE_SIZE}`, 'Invalid cursor'], ...AUTH, 403: [P.onlyOwner] },
    schema: { querystring: ZEarningsQuery, response: { 200: ZEarningsResponse } },
  }),
  finalizePayment: defineCall({
    id: 'finalizePayment',
    method: 'POST',
    path: '/api/payments/process/:id/finalize-payment',
    service: 'payments',
    summary: "After answering: make sure the question's held tip is captured",
    description:
      'Recipient only. 200 when captured, 202 while the capture is still under way (it follows the answer on its own).',
    auth: 'required',
    errors: {
      ...AUTH,
      403: [P.onlyRecipientFinalizes],
      404: [P.paymentNotFound],
      409: [P.notPaidYet, P.needsAnswer, P.released],
    },
    schema: {
      params: ZPaymentQuestionParams,
      body: ZNoBody,
      response: { 200: ZPaymentActionResponse, 202: ZPaymentActionResponse },
    },
  }),
  cancelPayment: defineCall({
    id: 'cancelPayment',
    method: 'POST',
    path: '/api/payments/process/:id/cancel-payment',
    service: 'payments',
    summary: "Release a question's held tip (recipient or asker); nothing is charged",
    description: '200 when released, 202 while the release is still under way.',
    auth: 'required',
    errors: {
      ...AUTH,
      403: [P.onlyPartiesCancel],
      404: [P.paymentNotFound],
      409: [P.alreadyCaptured],
    },
    schema: {
      params: ZPaymentQuestionParams,
      body: ZNoBody,
      response: { 200: ZPaymentActionResponse, 202: ZPaymentActionResponse },
    },
  }),
  createCheckoutSession: defineCall({
    id: 'createCheckoutSession',
    method: 'POST',
    path: '/api/checkout/create-checkout-session',
    service: 'payments',
    summary: 'Ask a tipped question: validates it, then opens the hosted checkout (`url`) for `donationAmount` dollars',
    description:
      "The question follows the ask rules; the tip must be one the owner offers. The question stays invisible until " +
      'the card is authorized (held, not charged), and goes if the checkout ends unpaid. An `Idempotency-Key` makes a ' +
      'retry answer with the same session.',
    auth: 'optional',
    rateLimit: 'auth',
    idempotent: true,
    errors: {
      400: [
        P.questionDataMissing,
        ...ASK_RULE_ERRORS,
        P.wholeDollars,
        P.notAnOption,
        IDEMPOTENCY_KEY,
        IDEMPOTENCY_GUEST_DEVICE,
      ],
      401: [BAD_TOKEN],
      409: [IDEMPOTENCY_IN_FLIGHT],
      422: [
        ASK_MESSAGES.archiveProfile,
        ASK_MESSAGES.tipTooLarge,
        P.ownProfile,
        P.notAcceptingTips,
        P.cannotReceiveTips,
        IDEMPOTENCY_MISMATCH,
      ],
      429: [TOO_MANY],
      503: [P.checkoutFailed],
    },
    schema: { body: ZCreateCheckoutSessionRequest, response: { 200: ZCheckoutSessionResponse } },
  }),
} as const;

/** The test mode's hosted pages answer HTML (and redirects after a form post). */
const ZHtml = z.string().describe('text/html');
const ZForm = z.unknown().describe('application/x-www-form-urlencoded (ignored)');
const ZSessionParams = z.object({ id: z.string().max(200) });
const ZAccountParams = z.object({ accountId: z.string().max(200) });

/**
 * Calls a browser or the provider makes that are not JSON /api calls: the provider's signed webhook (raw bytes, the
 * signature covers them) and the test mode's hosted pages (HTML, form posts). Listed in `BROWSER_CALLS`.
 */
export const paymentsBrowserCalls = {
  webhook: defineCall({
    id: 'paymentsWebhook',
    method: 'POST',
    path: '/api/payments/webhook',
    service: 'payments',
    summary: "The card provider's webhook (Stripe-signed); processing runs after the answer",
    auth: 'none',
    bodyKind: 'raw',
    errors: { 400: [P.invalidSignature] },
    schema: {
      body: z.unknown().describe('the raw event bytes, as signed'),
      response: { 200: z.strictObject({ received: z.literal(true), duplicate: z.boolean() }) },
    },
  }),
  testCheckoutPage: defineCall({
    id: 'testModeCheckoutPage',
    method: 'GET',
    path: '/pay/test/checkout/:id',
    service: 'payments',
    summary: 'Test mode: the hosted checkout page (stands in for Stripe Checkout)',
    auth: 'none',
    schema: { params: ZSessionParams, response: { 200: ZHtml, 404: ZHtml } },
  }),
  testCheckoutPay: defineCall({
    id: 'testModeCheckoutPay',
    method: 'POST',
    path: '/pay/test/checkout/:id/pay',
    service: 'payments',
    summary: "Test mode: the checkout page's Pay button (authorizes the card), then back to Ques",
    auth: 'none',
    bodyKind: 'raw',
    schema: { params: ZSessionParams, body: ZForm, response: { 404: ZHtml } },
  }),
  testCheckoutCancel: defineCall({
    id: 'testModeCheckoutCancel',
    method: 'POST',
    path: '/pay/test/checkout/:id/cancel',
    service: 'payments',
    summary: "Test mode: the checkout page's Cancel button (the checkout expires unpaid), then back to Ques",
    auth: 'none',
    bodyKind: 'raw',
    schema: { params: ZSessionParams, body: ZForm, response: { 404: ZHtml } },
  }),
  testOnboardingPage: defineCall({
    id: 'testModeOnboardingPage',
    method: 'GET',
    path: '/pay/test/onboarding/:accountId',
    service: 'payments',
    summary: "Test mode: the payout account's onboarding page (stands in for Stripe Connect onboarding)",
    auth: 'none',
    schema: { params: ZAccountParams, response: { 200: ZHtml, 404: ZHtml } },
  }),
  testOnboardingComplete: defineCall({
    id: 'testModeOnboardingComplete',
    method: 'POST',
    path: '/pay/test/onboarding/:accountId/complete',
    service: 'payments',
    summary: 'Test mode: completes onboarding, then back to Ques',
    auth: 'none',
    bodyKind: 'raw',
    schema: { params: ZAccountParams, body: ZForm, response: { 404: ZHtml } },
  }),
} as const;
