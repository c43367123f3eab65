// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { call, TEST_PASSWORD } from '../test/identity-journey.js';
import { browserGate, newContext, releaseShared, screenshot, useShared, watchErrors, axeViolations as axeIn } from './harness.js';

/*
 * Issue 28, the owner's first hour (docs/adr/0056), in headless Chromium on the shared product: sign up → the set-up
 * page → bio and colours in place → payouts connected in test mode (country chosen and confirmed) → tips on (saved at
 * once, kept after a reload) → link copied → a reload keeps the progress → "You're live". The set-up and payment
 * pages have 0 axe violations at 390 and 1280 px.
 */

const run = browserGate();
const until = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

/** axe-core on `main`, the admin navigation (harness.ts). */
const axeViolations = (page: Page) => axeIn(page, ['main', '.admin__aside']);

/** axe and a screenshot at both widths, the page reloaded at each (nothing depends on the first width). */
async function checkBothWidths(page: Page, name: string, ready: () => Promise<unknown>) {
  for (const [viewport, size] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 900 }]] as const) {
    await page.setViewportSize(size);
    await page.reload();
    await ready();
    expect(await axeViolations(page), `${name} at ${size.width}`).toEqual([]);
    await screenshot(page, name, viewport);
  }
}

describe.runIf(run)('the set-up path of a new owner (issue 28, browser)', () => {
  let product: EmbeddedProduct;
  let browser: Browser;

  beforeAll(async () => {
    ({ product, browser } = await useShared());
  }, 120_000);
  afterAll(async () => {
    await releaseShared(browser);
  });

  it('signs up, sets the page up step by step, and ends live with the progress kept', async () => {
    const base = product.url;
    const context = await newContext(browser, 'desktop', base);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const email = `sela.${Date.now().toString(36)}@example.com`;

    // Sign up → the set-up page.
    await page.goto('/signup');
    await page.getByLabel('Name').fill('Sela Setup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/setup');
    await page.getByText('0 of 7 steps done').waitFor();
    const nav = page.getByRole('navigation', { name: 'Admin' });
    const username = await page.evaluate(() => localStorage.getItem('username') ?? '');
    expect(await nav.getByRole('link', { name: 'View my page' }).getAttribute('href')).toBe(`/ask/${username}`);
    await checkBothWidths(page, 'setup-start', () => page.getByText('0 of 7 steps done').waitFor());

    // Bio and colours, in place.
    await page.getByLabel('Bio').fill('I answer questions about sourdough.');
    await page.getByRole('button', { name: 'Save bio' }).click();
    await page.getByText('1 of 7 steps done').waitFor();
    await page.getByLabel('Main colour').fill('#0b6e4f');
    await page.getByRole('button', { name: 'Save colours' }).click();
    await page.getByText('2 of 7 steps done').waitFor();

    // Payouts: one click to the payment page, where they come first; tipping waits for them.
    await page.getByRole('link', { name: 'Connect payouts' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/payment');
    const tipping = page.getByRole('switch', { name: 'Enabling Tipping' });
    await tipping.waitFor();
    expect(await tipping.isDisabled()).toBe(true);
    await checkBothWidths(page, 'payment-connect', () => tipping.waitFor());
    await page.getByLabel('Payout country').selectOption('FR');
    await page.getByRole('button', { name: 'Connect payouts' }).click();
    await page.getByText('The country cannot be changed later.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Confirm France and continue' }).click();
    await page.waitForURL(/\/pay\/test\/onboarding\//);
    expect(await page.getByText(/· FR$/).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Complete onboarding' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/payment');
    await page.getByText('Your payout account in France is ready to receive tips.').waitFor();

    // Tips on: saved at once (no Save), still on after a reload.
    await until(() => tipping.isEnabled()).toBe(true);
    await tipping.click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Tipping turned on').waitFor();
    await page.reload();
    await until(() => tipping.isChecked()).toBe(true);
    await checkBothWidths(page, 'payment-connected', () => page.getByText('Your payout account in France is ready to receive tips.').waitFor());

    // Back on the set-up page: copy the link (copying counts as shared); a reload keeps the progress.
    await nav.getByRole('link', { name: 'Set-up' }).click();
    await page.getByText('4 of 7 steps done').waitFor();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Link copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/ask/${username}`);
    await page.getByText('5 of 7 steps done').waitFor();
    await page.reload();
    await page.getByText('5 of 7 steps done').waitFor();

    // The photo in place, and a first public Q&A (curated, as the curated page would) → live.
    const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#0B6E4F' } }).png().toBuffer();
    await page.getByLabel('Photo file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByText('6 of 7 steps done').waitFor();
    const token = await page.evaluate(() => localStorage.getItem('accessToken') ?? '');
    const curated = await call(base, 'POST', '/api/questions', {
      question: 'How long do you proof?', detail: '', answer: 'Overnight, in the fridge.', source: '', displayOnProfile: true,
      isCurated: true, tip: 0, yourName: 'Sela Setup', yourEmail: email, toUsername: username, fromUsername: username, tags: [],
    }, token);
    expect(curated.status).toBe(201);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'You’re live — share your link' }).waitFor();
    await checkBothWidths(page, 'setup-live', () => page.getByText('Every step is done. 7 of 7 steps done').waitFor());
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
