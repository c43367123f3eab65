import type { EmbeddedProduct } from '../embedded.js';
import { call, signup, TEST_PASSWORD, verifyEmail } from '../test/identity-journey.js';
import type { BrowserSession } from './harness.js';

/**
 * An operator made the documented way on the embedded default: the address is listed in `OPERATOR_EMAILS` (the
 * product must be started with it), verified, and signs in — the token then carries the operator claim.
 */
export async function makeOperator(product: EmbeddedProduct, email: string, name: string): Promise<BrowserSession> {
  const made = await signup(product.url, name, email);
  await verifyEmail(product.url, product.mailDir, email);
  const login = await call(product.url, 'POST', '/api/users/login', { email, password: TEST_PASSWORD });
  if (login.status !== 200) throw new Error(`operator login failed: ${login.status} ${login.text}`);
  return {
    accessToken: login.body.accessToken,
    refreshToken: login.body.refreshToken,
    user: login.body.user ?? { username: made.username, name, email, id: made.id, _id: made.id },
  };
}
