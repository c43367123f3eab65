import { expect } from 'vitest';
import { cliGranter } from '@ques/identity';
import type { EmbeddedProduct } from '../embedded.js';
import { call, signup, TEST_PASSWORD } from './identity-journey.js';

/**
 * Makes an existing account a platform operator the way `npm run admin -w @ques/identity -- grant-operator` does (the
 * same `Operators.grant`, recorded as granted by `cli:test`), then signs in through the BFF: the returned access token
 * carries the `op` claim.
 */
export async function grantOperator(product: EmbeddedProduct, email: string, password = TEST_PASSWORD): Promise<string> {
  const { operators } = product.services.identity.parts;
  const row = await operators.find({ email });
  await operators.grant(row.id, cliGranter('test'));
  const login = await call(product.url, 'POST', '/api/users/login', { email, password });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return login.body.accessToken as string;
}

/** Signs a new account up and makes it an operator; `token` is an operator's access token. */
export async function signupOperator(product: EmbeddedProduct, name: string, email: string) {
  const account = await signup(product.url, name, email);
  return { ...account, token: await grantOperator(product, email) };
}
