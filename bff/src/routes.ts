import type { ServiceName } from './upstreams.js';

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  service: ServiceName;
  /** The BFF rejects calls without a valid access token before they reach the service. */
  auth?: boolean;
  /** Stricter per-IP limit for credential endpoints. */
  rateLimit?: 'auth';
  /** A multipart upload: streamed through to the service unparsed (the service enforces its own size limit). */
  upload?: boolean;
  /** Forwarded byte for byte with its content type, unparsed (webhook signatures, HTML form posts). */
  raw?: boolean;
}

/** The /api of spec §7, route by route: which service answers it. Services serve the same paths. */
export const API_ROUTES: ApiRoute[] = [
  { method: 'POST', url: '/api/users', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/login', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/refresh-token', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/logout', service: 'identity' },
  { method: 'GET', url: '/api/users/profile', service: 'identity', auth: true },
  { method: 'PUT', url: '/api/users/profile', service: 'identity', auth: true },
  { method: 'GET', url: '/api/users/public/:username', service: 'identity' },
  { method: 'POST', url: '/api/users/avatar', service: 'identity', auth: true, upload: true },
  { method: 'DELETE', url: '/api/users/profile/:id', service: 'identity', auth: true },
  { method: 'POST', url: '/api/users/reset-password', service: 'identity', rateLimit: 'auth' },
  { method: 'POST', url: '/api/users/reset-password-confirm', service: 'identity', rateLimit: 'auth' },
  { method: 'GET', url: '/images/avatars/:userId/:file', service: 'identity' },
  { method: 'GET', url: '/api/support/captcha', service: 'support' },
  { method: 'POST', url: '/api/support/send', service: 'support' },
  // Public list (?username=X&role=receiver) or, with a token, the caller's own lists: the service decides.
  { method: 'GET', url: '/api/questions', service: 'questions' },
  // Guests ask without an account: limited per client like the credential routes.
  { method: 'POST', url: '/api/questions', service: 'questions', rateLimit: 'auth' },
  { method: 'GET', url: '/api/questions/:id', service: 'questions' },
  { method: 'PUT', url: '/api/questions/:id/answer', service: 'questions', auth: true },
  { method: 'PATCH', url: '/api/questions/:id', service: 'questions', auth: true },
  { method: 'DELETE', url: '/api/questions/:id', service: 'questions', auth: true },
  // Owner control over asking (issue 16).
  { method: 'GET', url: '/api/asking/status/:username', service: 'questions' },
  { method: 'GET', url: '/api/asking/settings', service: 'questions', auth: true },
  { method: 'PUT', url: '/api/asking/settings', service: 'questions', auth: true },
  { method: 'GET', url: '/api/asking/blocks', service: 'questions', auth: true },
  { method: 'DELETE', url: '/api/asking/blocks/:id', service: 'questions', auth: true },
  { method: 'POST', url: '/api/questions/:id/block', service: 'questions', auth: true },
  // Asker trust (issue 14): the private status page by its token (no account), and the signed-in asker's link to it.
  { method: 'GET', url: '/api/question-status/:token', service: 'questions', rateLimit: 'auth' },
  { method: 'POST', url: '/api/question-status/:token/confirm', service: 'questions', rateLimit: 'auth' },
  { method: 'POST', url: '/api/question-status/:token/withdraw', service: 'questions', rateLimit: 'auth' },
  { method: 'POST', url: '/api/questions/:id/status-link', service: 'questions', auth: true },
  { method: 'GET', url: '/api/asking/similar/:username', service: 'questions', rateLimit: 'auth' },
  { method: 'GET', url: '/api/payments/tipOptions', service: 'payments' },
  { method: 'PUT', url: '/api/payments/tipOptions', service: 'payments', auth: true },
  { method: 'POST', url: '/api/payments/connect', service: 'payments', auth: true },
  { method: 'GET', url: '/api/payments/account-status', service: 'payments', auth: true },
  { method: 'GET', url: '/api/payments/earnings', service: 'payments', auth: true },
  { method: 'POST', url: '/api/payments/process/:id/finalize-payment', service: 'payments', auth: true },
  { method: 'POST', url: '/api/payments/process/:id/cancel-payment', service: 'payments', auth: true },
  // Guests check out without a token: limited like the credential routes.
  { method: 'POST', url: '/api/checkout/create-checkout-session', service: 'payments', rateLimit: 'auth' },
  // Stripe's signature covers the exact bytes.
  { method: 'POST', url: '/api/payments/webhook', service: 'payments', raw: true },
  // Test-mode hosted pages, served by payments (plain HTML forms posting to the same origin).
  { method: 'GET', url: '/pay/test/checkout/:id', service: 'payments' },
  { method: 'POST', url: '/pay/test/checkout/:id/pay', service: 'payments', raw: true },
  { method: 'POST', url: '/pay/test/checkout/:id/cancel', service: 'payments', raw: true },
  { method: 'GET', url: '/pay/test/onboarding/:accountId', service: 'payments' },
  { method: 'POST', url: '/pay/test/onboarding/:accountId/complete', service: 'payments', raw: true },
];
