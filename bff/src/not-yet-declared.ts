import { z } from 'zod';
import { defineCall, PAYMENT_MESSAGES, type ApiCall } from '@ques/contracts';

/*
 * TRANSITIONAL. The identity and payments /api calls as the BFF routed them before those services declared their
 * calls in contracts (`contracts/src/api/identity.ts`, `payments.ts`). A route declared there wins over its entry
 * here (see `forwardedCalls` in routes.ts); once both services' maps are in `API_CALLS`, delete this file.
 *
 * The schemas document the spec §7 payloads and reads; they validate no more than "a JSON object" (every field
 * optional, unknown fields kept) so the services keep answering bad fields in their own words, as before.
 */

const NO_TOKEN = 'Not authorized, no token';
const BAD_TOKEN = 'Not authorized, token failed';
const TOO_MANY = 'Too many requests. Please try again in a moment.';
const NOT_AN_OBJECT = 'The request body must be a JSON object.';

/** A documented field: any JSON value reaches the service, the docs say what it should be. */
const field = (description: string) => z.unknown().optional().meta({ description });
/** A JSON object with these documented fields (all optional here, others kept), or no body at all (Fastify: null). */
const body = (fields: Record<string, string>) =>
  z
    .looseObject(
      Object.fromEntries(Object.entries(fields).map(([name, text]) => [name, field(text)])),
      { error: NOT_AN_OBJECT },
    )
    .nullish();
const reads = (fields: Record<string, string>) =>
  z.looseObject(Object.fromEntries(Object.entries(fields).map(([name, text]) => [name, z.unknown().meta({ description: text })])));
const ZUserRead = z.looseObject({}).meta({
  description: 'The account: _id, id, username, name, email, bio, avatarUrl, brandColorMain, brandColorLight, archiveProfile, createdAt',
});
const message = reads({ message: 'What happened, in words to show' });

const authErrors = { 401: [NO_TOKEN, BAD_TOKEN] } as const;

export const notYetDeclared = {
  signup: defineCall({
    id: 'signup',
    method: 'POST',
    path: '/api/users',
    service: 'identity',
    summary: 'Create an account',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Name is required', 'Email is required', 'Password is required', 'Please enter a valid email address'], 409: ['An account with this email already exists.', 'This username is taken.'], 429: [TOO_MANY] },
    schema: {
      body: body({ name: 'string', email: 'string', password: 'string', username: 'string (optional)' }),
      response: { 201: reads({ message: 'string', user: 'the account', token: 'access token', accessToken: 'access token', refreshToken: 'refresh token' }) },
    },
  }),
  login: defineCall({
    id: 'login',
    method: 'POST',
    path: '/api/users/login',
    service: 'identity',
    summary: 'Sign in with e-mail and password',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Email and password are required'], 401: ['Invalid email or password'], 429: ['Too many login attempts. Please try again later.', TOO_MANY] },
    schema: {
      body: body({ email: 'string', password: 'string' }),
      response: { 200: reads({ message: 'string', user: 'the account', accessToken: 'access token', refreshToken: 'refresh token' }) },
    },
  }),
  refreshToken: defineCall({
    id: 'refreshToken',
    method: 'POST',
    path: '/api/users/refresh-token',
    service: 'identity',
    summary: 'Exchange a refresh token for a new access token (refresh tokens rotate)',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Refresh token is required'], 401: ['Invalid or expired refresh token', 'Session has ended, please log in again'], 429: [TOO_MANY] },
    schema: { body: body({ refreshToken: 'string' }), response: { 200: reads({ accessToken: 'string', refreshToken: 'string' }) } },
  }),
  logout: defineCall({
    id: 'logout',
    method: 'POST',
    path: '/api/users/logout',
    service: 'identity',
    summary: 'End the session of a refresh token',
    auth: 'none',
    schema: { body: body({ refreshToken: 'string (optional)' }), response: { 200: message } },
  }),
  getProfile: defineCall({
    id: 'getProfile',
    method: 'GET',
    path: '/api/users/profile',
    service: 'identity',
    summary: 'The signed-in account',
    auth: 'required',
    errors: { ...authErrors, 404: ['User not found'] },
    schema: { response: { 200: ZUserRead } },
  }),
  updateProfile: defineCall({
    id: 'updateProfile',
    method: 'PUT',
    path: '/api/users/profile',
    service: 'identity',
    summary: 'Change the password (`{ newPassword }`) or the profile (name, email, bio, brand colours)',
    auth: 'required',
    errors: { 400: [NOT_AN_OBJECT, 'Please enter a new password.', 'Brand colours must be hex colours like #1A140F'], ...authErrors, 409: ['An account with this email already exists.'] },
    schema: {
      body: body({ newPassword: 'string', name: 'string', email: 'string', bio: 'string', brandColorMain: '#RRGGBB', brandColorLight: '#RRGGBB' }),
      response: { 200: ZUserRead },
    },
  }),
  publicProfile: defineCall({
    id: 'getPublicProfile',
    method: 'GET',
    path: '/api/users/public/:username',
    service: 'identity',
    summary: "A profile's public fields",
    auth: 'none',
    errors: { 404: ['User not found'] },
    schema: {
      params: z.object({ username: z.string() }),
      response: { 200: reads({ name: 'string', bio: 'string', avatarUrl: 'string', brandColorMain: 'string', brandColorLight: 'string', archiveProfile: 'boolean' }) },
    },
  }),
  uploadAvatar: defineCall({
    id: 'uploadAvatar',
    method: 'POST',
    path: '/api/users/avatar',
    service: 'identity',
    summary: 'Upload an avatar (multipart field `avatar`, at most 2 MB)',
    auth: 'required',
    bodyKind: 'multipart',
    errors: { 400: ['Please choose an image to upload.'], ...authErrors, 413: ['Image too large. Please pick one under 2 MB.'] },
    schema: { body: z.object({ avatar: z.string().meta({ format: 'binary' }) }), response: { 200: ZUserRead } },
  }),
  deleteAccount: defineCall({
    id: 'deleteAccount',
    method: 'DELETE',
    path: '/api/users/profile/:id',
    service: 'identity',
    summary: 'Delete your own account',
    auth: 'required',
    errors: { ...authErrors, 403: ['You can only delete your own account.'] },
    schema: { params: z.object({ id: z.string() }), response: { 200: message } },
  }),
  resetPassword: defineCall({
    id: 'requestPasswordReset',
    method: 'POST',
    path: '/api/users/reset-password',
    service: 'identity',
    summary: 'Mail a password-reset link (the answer never says whether the address has an account)',
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Email is required', 'Please enter a valid email address'], 429: [TOO_MANY] },
    schema: { body: body({ email: 'string' }), response: { 200: message } },
  }),
  resetPasswordConfirm: defineCall({
    id: 'confirmPasswordReset',
    method: 'POST',
    path: '/api/users/reset-password-confirm',
    service: 'identity',
    summary: "Set a new password with the reset link's token",
    auth: 'none',
    rateLimit: 'auth',
    errors: { 400: ['Reset failed', 'Please enter a new password.'], 429: [TOO_MANY] },
    schema: { body: body({ token: 'string', password: 'string' }), response: { 200: message } },
  }),
  getTipOptions: defineCall({
    id: 'getTipOptions',
    method: 'GET',
    path: '/api/payments/tipOptions',
    service: 'payments',
    summary: "A profile's tip options (`userId`)",
    auth: 'none',
    schema: {
      querystring: z.looseObject({ userId: z.string().optional() }),
      response: { 200: reads({ tipOptions: 'the options offered', tippingEnabled: 'boolean' }) },
    },
  }),
  saveTipOptions: defineCall({
    id: 'saveTipOptions',
    method: 'PUT',
    path: '/api/payments/tipOptions',
    service: 'payments',
    summary: 'Save your tip options',
    auth: 'required',
    errors: { 400: [PAYMENT_MESSAGES.invalidOption, PAYMENT_MESSAGES.tooManyOptions, PAYMENT_MESSAGES.zeroRequired, PAYMENT_MESSAGES.duplicateOption, PAYMENT_MESSAGES.tippingNotBoolean], ...authErrors, 422: [PAYMENT_MESSAGES.setUpFirst, PAYMENT_MESSAGES.completeFirst] },
    schema: {
      body: body({ userId: 'ignored (the token says who)', tipOptions: 'array of options', tippingEnabled: 'boolean' }),
      response: { 200: reads({ message: 'string', tipOptions: 'the options', tippingEnabled: 'boolean' }) },
    },
  }),
  connect: defineCall({
    id: 'connectPayoutAccount',
    method: 'POST',
    path: '/api/payments/connect',
    service: 'payments',
    summary: "Start the payout account's onboarding; answers the provider's URL",
    auth: 'required',
    errors: { 400: [PAYMENT_MESSAGES.invalidCountry], ...authErrors },
    schema: { body: body({ userId: 'ignored', country: 'two-letter code (default CA)' }), response: { 200: reads({ url: 'string' }) } },
  }),
  accountStatus: defineCall({
    id: 'getPayoutAccountStatus',
    method: 'GET',
    path: '/api/payments/account-status',
    service: 'payments',
    summary: "Your payout account's status",
    auth: 'required',
    errors: { ...authErrors, 403: [PAYMENT_MESSAGES.onlyOwner] },
    schema: { querystring: z.looseObject({ userId: z.string().optional() }), response: { 200: reads({ stripeAccountStatus: 'string' }) } },
  }),
  earnings: defineCall({
    id: 'getEarnings',
    method: 'GET',
    path: '/api/payments/earnings',
    service: 'payments',
    summary: 'Your earnings from tips',
    auth: 'required',
    errors: authErrors,
    schema: { response: { 200: z.looseObject({}) } },
  }),
  finalizePayment: defineCall({
    id: 'finalizePayment',
    method: 'POST',
    path: '/api/payments/process/:id/finalize-payment',
    service: 'payments',
    summary: "Capture an answered question's held tip",
    auth: 'required',
    errors: { ...authErrors, 403: [PAYMENT_MESSAGES.onlyRecipientFinalizes], 404: [PAYMENT_MESSAGES.paymentNotFound], 409: [PAYMENT_MESSAGES.needsAnswer, PAYMENT_MESSAGES.released, PAYMENT_MESSAGES.notPaidYet] },
    schema: { params: z.object({ id: z.string() }), body: body({}), response: { 200: message } },
  }),
  cancelPayment: defineCall({
    id: 'cancelPayment',
    method: 'POST',
    path: '/api/payments/process/:id/cancel-payment',
    service: 'payments',
    summary: "Release a pending question's held tip",
    auth: 'required',
    errors: { ...authErrors, 403: [PAYMENT_MESSAGES.onlyPartiesCancel], 404: [PAYMENT_MESSAGES.paymentNotFound], 409: [PAYMENT_MESSAGES.alreadyCaptured] },
    schema: { params: z.object({ id: z.string() }), body: body({}), response: { 200: message } },
  }),
  createCheckoutSession: defineCall({
    id: 'createCheckoutSession',
    method: 'POST',
    path: '/api/checkout/create-checkout-session',
    service: 'payments',
    summary: 'Ask a tipped question: hold the tip at the provider and answer where to pay',
    auth: 'optional',
    rateLimit: 'auth',
    idempotent: true,
    errors: { 400: [PAYMENT_MESSAGES.questionDataMissing, PAYMENT_MESSAGES.wholeDollars, PAYMENT_MESSAGES.notAnOption], 422: [PAYMENT_MESSAGES.notAcceptingTips, PAYMENT_MESSAGES.cannotReceiveTips], 429: [TOO_MANY] },
    schema: {
      body: body({ donationAmount: 'dollars', userId: 'ignored (the token says who)', questionData: 'the question payload of POST /api/questions', agreedToTerms: 'boolean' }),
      response: { 200: reads({ sessionId: 'string', paymentIntentId: 'string', url: "the provider's checkout page", message: 'string' }) },
    },
  }),
} as const satisfies Record<string, ApiCall>;

/*
 * The routes browsers and the payment provider call outside the web app's JSON client (BROWSER_CALLS once declared):
 * avatar images, the webhook and the test-mode provider's pages. Their bodies travel unparsed (`bodyKind: 'raw'`),
 * so their schemas describe rather than validate them.
 */
/** An HTML page, a file or an opaque body: what these routes answer besides their errors. */
const ZHtml = z.string().meta({ description: 'An HTML page', contentMediaType: 'text/html' });
const ZFile = z.string().meta({ description: 'The image file', format: 'binary' });
const ZRawBody = z
  .unknown()
  .meta({ description: 'Forwarded byte for byte with its content type (never parsed by the BFF)' });
const ZPageParams = z.object({ id: z.string().max(200) });
const ZOnboardingParams = z.object({ accountId: z.string().max(200) });

export const notYetDeclaredBrowser = {
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
} as const satisfies Record<string, ApiCall>;

/** The transitional list (see the top of this file). */
export const NOT_YET_DECLARED: readonly ApiCall[] = [...Object.values(notYetDeclared), ...Object.values(notYetDeclaredBrowser)];
