import type { EmbeddedProduct } from '../embedded.js';
import { signup } from '../test/identity-journey.js';
import type { BrowserSession } from './harness.js';

/** An operator made the documented way (until the operator role is merged: not yet possible). */
export async function makeOperator(product: EmbeddedProduct, email: string, name: string): Promise<BrowserSession> {
  const made = await signup(product.url, name, email);
  return {
    accessToken: made.token,
    refreshToken: made.refreshToken,
    user: { username: made.username, name, email, id: made.id, _id: made.id },
  };
}
