// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox, type StoredMail } from '@ques/kit';
import type { EmbeddedProduct } from '../embedded.js';
import { TEST_PASSWORD } from '../test/identity-journey.js';
import { browserGate, releaseShared, screenshot, useShared, VIEWPORTS, watchErrors, type ViewportName, axeViolations as axeIn, dateTimeIn, newContext, rgb } from './harness.js';

/*
 * Issue 28, "Done when" 1 — the first hour, end to end, once per width (390×844 and 1280×900) on the embedded
 * default: a new owner signs up choosing a handle → the set-up checklist → photo, bio, colours → payouts connected in
 * test mode → tips on → link copied; a guest (browser in India's time zone, UTC+5:30) asks with a $5 tip → the
 * confirmation page (amount, split, release date in that zone, status link) → the receipt e-mail (HTML and text parts)
 * names the title and the amount → the owner answers in the inbox and is told "You earned $4.50" → the guest's status
 * page ends with the charge, in the owner's colours, with the link to the public answer. axe on every screen.
 * The pieces are tested in depth elsewhere (onboarding, after-paying, admin, handle, mail specs); this is the journey.
 */

const run = browserGate();
const ZONE = 'Asia/Kolkata';
const MAIN = '#7A2E8C';
const LIGHT = '#F6ECF8';
const TITLE = 'Which lens would you take for a first trip to Ladakh?';
const ANSWER = 'A 24–70 mm zoom and nothing else: the light is hard, the walks are long, and you will not change lenses in the wind.';
const until = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 100 });

/** axe-core on `main`, any dialog (harness.ts). */
const axeViolations = (page: Page) => axeIn(page, ['main', '[role="dialog"]']);

/** A fresh context (harness.ts) in `timezoneId`, with longer waits: the journey runs on a busy machine. */
async function context(browser: Browser, viewport: ViewportName, baseURL: string, timezoneId: string): Promise<BrowserContext> {
  const ctx = await newContext(browser, viewport, baseURL, timezoneId);
  ctx.setDefaultTimeout(15_000);
  ctx.setDefaultNavigationTimeout(20_000);
  return ctx;
}

/** A time as the status pages show it in the asker's zone. */
const inZone = (iso: string) => dateTimeIn(iso, ZONE);

describe.runIf(run)('the first hour, end to end (issue 28, browser)', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  const tag = Date.now().toString(36);

  beforeAll(async () => {
    ({ product, browser } = await useShared());
  }, 120_000);
  afterAll(async () => releaseShared(browser));

  for (const viewport of ['phone', 'desktop'] as const) {
    const width = VIEWPORTS[viewport].width;

    it(`at ${width} px: sign-up with a handle → set up → a $5 question → receipt → "You earned $4.50" → charged`, async () => {
      const base = product.url;
      const handle = `lena-first-${tag}-${width}`;
      const email = `lena.first.${tag}.${width}@example.com`;
      const guestEmail = `ravi.first.${tag}.${width}@example.com`;
      const name = `Lena Firsthour ${width}`;

      // The owner signs up choosing her handle (the live check says it is free) and lands on the set-up page.
      const owner = await context(browser, viewport, base, 'Europe/Berlin');
      await owner.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      const page = await owner.newPage();
      const errors = watchErrors(page);
      await page.goto('/signup');
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByLabel('Your link').fill(handle);
      await page.getByText(`${handle} is available`).waitFor();
      await page.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Sign Up' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/setup');
      await page.getByText('0 of 7 steps done').waitFor();
      expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(handle);
      expect(await axeViolations(page), 'set-up').toEqual([]);

      // Photo, bio and colours, in place.
      const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: MAIN } }).png().toBuffer();
      await page.getByLabel('Photo file').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await page.getByText('1 of 7 steps done').waitFor();
      await page.getByLabel('Bio').fill('Travel photographer. Ask me about lenses, light and long walks.');
      await page.getByRole('button', { name: 'Save bio' }).click();
      await page.getByText('2 of 7 steps done').waitFor();
      await page.getByLabel('Main colour').fill(MAIN);
      await page.getByLabel('Light colour').fill(LIGHT);
      await page.getByRole('button', { name: 'Save colours' }).click();
      await page.getByText('3 of 7 steps done').waitFor();

      // Payouts first (country chosen and confirmed), then tips on — saved at once.
      await page.getByRole('link', { name: 'Connect payouts' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/payment');
      const tipping = page.getByRole('switch', { name: 'Enabling Tipping' });
      expect(await tipping.isDisabled()).toBe(true);
      expect(await axeViolations(page), 'payment before payouts').toEqual([]);
      await page.getByLabel('Payout country').selectOption('DE');
      await page.getByRole('button', { name: 'Connect payouts' }).click();
      await page.getByRole('button', { name: 'Confirm Germany and continue' }).click();
      await page.waitForURL(/\/pay\/test\/onboarding\//);
      await page.getByRole('button', { name: 'Complete onboarding' }).click();
      await page.waitForURL((url) => url.pathname === '/admin/payment');
      await until(() => tipping.isEnabled()).toBe(true);
      await tipping.click();
      await page.getByRole('region', { name: 'Notifications' }).getByText('Tipping turned on').waitFor();

      // Share the link: copying it counts.
      await page.goto('/admin/setup');
      await page.getByText('5 of 7 steps done').waitFor();
      await page.getByRole('button', { name: 'Copy link' }).click();
      await page.getByText('6 of 7 steps done').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${base}/ask/${handle}`);
      await screenshot(page, 'first-hour-setup', viewport);

      // A guest in India asks with a $5 tip and pays in the test-mode checkout.
      const guest = await context(browser, viewport, base, ZONE);
      const asker = await guest.newPage();
      const guestErrors = watchErrors(asker);
      await asker.goto(`/ask/${handle}`);
      await asker.getByRole('button', { name: `Ask ${name} a Question` }).click();
      const dialog = asker.getByRole('dialog', { name: `Ask ${name} a question` });
      await dialog.getByRole('radio', { name: '$5', exact: true }).check();
      await dialog.getByLabel(/Question title/).fill(TITLE);
      await dialog.getByRole('checkbox').check();
      await dialog.getByLabel('Your Name').fill('Ravi Guest');
      await dialog.getByLabel('Email').fill(guestEmail);
      await dialog.getByRole('button', { name: 'Post Question' }).click();
      await asker.waitForURL(/\/pay\/test\/checkout\//);
      await asker.getByRole('button', { name: 'Pay $5.00' }).click();

      // The confirmation: amount and split, the release date in the asker's zone, the status link.
      await asker.waitForURL(/\/q\/[A-Za-z0-9_-]{43}\?confirmed=1$/);
      const token = /\/q\/([A-Za-z0-9_-]{43})/.exec(asker.url())![1]!;
      await until(() => asker.getByTestId('status').textContent()).toBe('Pending');
      expect(await asker.getByTestId('money').innerText()).toBe(`$5.00 held · $4.50 to ${name} · $0.50 Ques fee`);
      const releaseAt = (await asker.getByTestId('release').locator('time').getAttribute('datetime'))!;
      // The server writes UTC; the page switches to the asker's zone once hydrated (ADR 0058).
      await until(() => asker.getByTestId('release').innerText()).toContain(`hasn’t answered by ${inZone(releaseAt)}, the hold is released`);
      expect(await asker.getByLabel('Keep this link to follow your question:').inputValue()).toBe(`${base}/q/${token}`);
      expect(await axeViolations(asker), 'confirmation').toEqual([]);
      await screenshot(asker, 'first-hour-confirmation', viewport);

      // The receipt e-mail: HTML and text, naming the title and the amount held, with a status link.
      let receipt: StoredMail | undefined;
      await until(() => (receipt = readMailbox(product.mailDir).find((m) => m.to.includes(guestEmail) && m.text.includes('$5.00'))) !== undefined).toBe(true);
      if (!receipt) throw new Error('no receipt');
      expect(receipt.contentType).toBe('multipart/alternative');
      for (const part of [receipt.text, receipt.html ?? '']) {
        expect(part).toContain(TITLE);
        expect(part).toContain('$5.00');
        expect(part).toContain(name);
        expect(part).toMatch(new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/q/[A-Za-z0-9_-]{43}`));
      }

      // The owner answers from the inbox and is told what she earned.
      await page.goto('/admin');
      const entry = page.locator('tr, li.q-card').filter({ hasText: TITLE });
      await until(() => entry.getByText(/HELD/i).count()).toBeGreaterThan(0);
      await entry.getByRole('button', { name: 'Reply' }).click();
      const answer = page.getByRole('dialog', { name: 'Answer question' });
      await answer.getByLabel(/Your answer/).fill(ANSWER);
      expect(await axeViolations(page), 'answer dialog').toEqual([]);
      await answer.getByRole('button', { name: 'Post Answer' }).click();
      await page.getByRole('region', { name: 'Notifications' }).getByText('Answer posted — you earned $4.50').waitFor();

      // The guest's status page: the answer, the timeline ending with the charge, the owner's colours, the public link.
      await asker.goto(`/q/${token}`);
      await until(() => asker.getByTestId('timeline').locator('li').evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.step))).toEqual([
        'asked',
        'held',
        'answered',
        'charged',
      ]);
      await asker.getByText(ANSWER).waitFor();
      expect(await asker.getByTestId('timeline').locator('li').nth(3).innerText()).toContain('$5.00 charged');
      expect(await asker.locator('.status-page__owner').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(LIGHT));
      const publicLink = asker.getByRole('link', { name: `See the public answer on ${name}’s page` });
      expect(await publicLink.getAttribute('href')).toMatch(new RegExp(`^/ask/${handle}/question/`));
      expect(await axeViolations(asker), 'status').toEqual([]);
      await screenshot(asker, 'first-hour-status', viewport);
      await publicLink.click();
      await asker.getByRole('heading', { name: TITLE }).waitFor();

      expect(errors).toEqual([]);
      expect(guestErrors).toEqual([]);
      await owner.close();
      await guest.close();
    }, 240_000);
  }
});
