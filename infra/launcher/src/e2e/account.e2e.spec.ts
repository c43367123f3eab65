// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { call, verificationMails } from '../test/identity-journey.js';
import { browserGate, newContext, seedSession, releaseShared, useShared, watchErrors } from './harness.js';

/*
 * Issue 12 defect 4 in the browser: an unverified account sees the "verify your email" notice in Account Settings,
 * resends the link, opens the link from the mail as a person would, and the notice is gone; changing the password
 * asks for the current one.
 */

const run = browserGate();
const tag = Date.now().toString(36);
const until = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 50 });

describe.skipIf(!run)('account settings: e-mail verification and the current password, in Chromium', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ({ product, browser } = await useShared());
    base = product.url;
  });
  afterAll(async () => {
    await releaseShared(browser);
  });

  it('shows the notice, resends the link, verifies through the mailed link, and asks for the current password', async () => {
    const email = `vera.${tag}@example.com`;
    const signup = await call(base, 'POST', '/api/users', { name: 'Vera Verify', email, password: 'a long enough password' });
    expect(signup.status).toBe(201);
    const context = await newContext(browser, 'phone', base);
    await seedSession(context, { accessToken: signup.body.token, refreshToken: signup.body.refreshToken, user: signup.body.user });
    const page = await context.newPage();
    const errors = watchErrors(page);

    await page.goto('/admin/account-settings');
    const notice = page.getByRole('region', { name: 'Verify your email' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(email);
    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await until(() => notice.getByRole('status').textContent()).toBe('Verification email sent. Please check your inbox.');
    await until(() => verificationMails(product.mailDir, email).length).toBe(2);
    // Wait for the mail job to commit the link's hash (no person clicks faster).
    const { db } = product.services.identity.ctx;
    await until(async () => !(await db.selectFrom('scheduled_jobs').select('id').where('status', '=', 'pending').executeTakeFirst())).toBe(true);

    const link = /https?:\/\/\S+\/verify-email\?token=[\w-]+/.exec(verificationMails(product.mailDir, email)[1]!.text)![0];
    await page.goto(link);
    await until(() => page.getByRole('status').first().textContent()).toContain('Your email address is verified.');
    // Issue 28: the verified address continues the set-up path.
    await page.getByRole('link', { name: 'Continue setting up your page' }).click();
    await page.getByRole('heading', { level: 1, name: 'Set up your page' }).waitFor();
    await page.goto('/admin/account-settings');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    expect(await page.getByRole('region', { name: 'Verify your email' }).count()).toBe(0);

    // The password: the current one first.
    await page.getByLabel('New Password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await until(() => page.getByText('Please enter your current password.').isVisible()).toBe(true);
    await page.getByLabel('Current Password', { exact: true }).fill('a long enough password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await until(() => page.getByRole('region', { name: 'Notifications' }).getByText('Your password has been successfully updated.').isVisible()).toBe(true);
    expect((await call(base, 'POST', '/api/users/login', { email, password: 'a brand new passphrase' })).status).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says clearly when a link is spent or wrong', async () => {
    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    await page.goto('/verify-email?token=not-a-real-token');
    await until(() => page.getByRole('alert').textContent()).toBe(
      'This verification link is invalid, expired or already used. Sign in and send a new one from Account Settings.',
    );
    await context.close();
  });
});
