// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDLE_MESSAGES as H } from '@ques/contracts';
import type { EmbeddedProduct } from '../embedded.js';
import { call, TEST_PASSWORD } from '../test/identity-journey.js';
import { browserGate, horizontalOverflow, newContext, releaseShared, screenshot, useShared, watchErrors, type ViewportName, axeViolations as axeIn } from './harness.js';

/*
 * Issue 28 in Chromium: sign-up chooses the public link (prefilled from the name, the live "available" tick, a taken
 * one's message under the field), every sign-up error at once and each gone when its field is valid; the rename in
 * Account Settings with its confirmation, after which the old link redirects — a 301 on a load, the app's own address
 * replacement in the app. axe on both screens at 390 and 1280.
 */

const run = browserGate();
const tag = Date.now().toString(36);
const until = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 50 });

/** axe-core on `main`, any dialog (harness.ts). */
const axeViolations = (page: Page) => axeIn(page, ['main', '[role="dialog"]']);

const describedBy = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
  );

describe.runIf(run)('the public handle (browser)', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ({ product, browser } = await useShared());
    base = product.url;
  }, 120_000);
  afterAll(async () => releaseShared(browser));

  it('signs up choosing a link: live tick, a taken one refused under the field, all errors at once, each cleared', async () => {
    // Someone already holds this one.
    const holder = await call(base, 'POST', '/api/users', { name: 'Taken Person', email: `taken.${tag}@example.com`, password: TEST_PASSWORD, username: `taken-${tag}` });
    expect(holder.status).toBe(201);
    const context = await newContext(browser, 'phone', base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/signup');

    // Everything empty: every error at once, each under its field.
    await page.getByRole('button', { name: 'Sign Up' }).click();
    expect(await describedBy(page, 'Name')).toContain('Name is required');
    expect(await describedBy(page, 'Email')).toContain('Email is required');
    expect(await describedBy(page, 'Password')).toContain('Password is required');
    expect(await page.getByRole('checkbox').evaluate((el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent)).toBe(
      'Please agree to the Terms of Use and Privacy Policy to sign up',
    );
    for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
      await page.setViewportSize(viewport === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 900 });
      expect(await axeViolations(page), `sign-up errors at ${viewport}`).toEqual([]);
    }
    await page.setViewportSize({ width: 390, height: 844 });

    // The name fills the link and the check ticks; the name's error goes at once.
    await page.getByLabel('Name', { exact: true }).fill(`Mira Castell ${tag}`);
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByLabel('Your link').inputValue()).toBe(`mira-castell-${tag}`);
    await until(() => describedBy(page, 'Your link')).toContain(`mira-castell-${tag} is available`);

    // A taken one, then a look-alike: the reason under the field.
    await page.getByLabel('Your link').fill(`taken-${tag}`);
    await until(() => describedBy(page, 'Your link')).toContain(H.taken);
    expect(await page.getByLabel('Your link').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Your link').fill('mir\u0430');
    await until(() => describedBy(page, 'Your link')).toContain(H.lookalike);
    await page.getByLabel('Your link').fill(`mira-${tag}`);
    await until(() => describedBy(page, 'Your link')).toContain('is available');

    await page.getByLabel('Email').fill(`mira.${tag}@example.com`);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    expect(await page.getByRole('alert').count()).toBe(1);
    await page.getByRole('checkbox').check();
    expect(await page.getByRole('alert').count()).toBe(0);
    for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
      await page.setViewportSize(viewport === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 900 });
      expect(await axeViolations(page), `sign-up at ${viewport}`).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, 'signup-handle', viewport);
    }
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL((url) => url.pathname !== '/signup');
    expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(`mira-${tag}`);

    // Renamed in Account Settings, confirmed; the old link then redirects.
    await page.goto('/admin/account-settings/link');
    const section = page.getByRole('region', { name: 'Your public link' });
    await until(() => section.getByLabel('Current link').inputValue()).toBe(`${base}/ask/mira-${tag}`);
    await section.getByLabel('New link').fill(`mira-new-${tag}`);
    await until(() => describedBy(page, 'New link')).toContain('is available');
    for (const viewport of ['phone', 'desktop'] as ViewportName[]) {
      await page.setViewportSize(viewport === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 900 });
      expect(await axeViolations(page), `public link at ${viewport}`).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      await screenshot(page, 'account-public-link', viewport);
    }
    await section.getByRole('button', { name: 'Change link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change your public link?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`/ask/mira-${tag} will redirect to /ask/mira-new-${tag} for 90 days`);
    expect(await axeViolations(page), 'confirmation').toEqual([]);
    await dialog.getByRole('button', { name: `Change to /ask/mira-new-${tag}` }).click();
    await until(() => section.getByLabel('Current link').inputValue()).toBe(`${base}/ask/mira-new-${tag}`);
    expect(await page.evaluate(() => localStorage.getItem('username'))).toBe(`mira-new-${tag}`);

    const old = await fetch(`${base}/ask/mira-${tag}`, { redirect: 'manual' });
    expect([old.status, old.headers.get('location')]).toEqual([301, `/ask/mira-new-${tag}`]);
    await page.goto(`/ask/mira-${tag}`);
    expect(new URL(page.url()).pathname).toBe(`/ask/mira-new-${tag}`);

    // In the app, where no 301 comes (the history, a link): the address moves to the new handle all the same.
    await page.getByRole('button', { name: 'Open menu' }).waitFor(); // the app runs (a signed-in visitor's page)
    await page.evaluate((path) => {
      history.pushState(null, '', path);
      dispatchEvent(new PopStateEvent('popstate'));
    }, `/ask/mira-${tag}?tag=x`);
    await until(() => new URL(page.url()).pathname).toBe(`/ask/mira-new-${tag}`);
    expect(new URL(page.url()).search).toBe('?tag=x');
    await page.getByRole('heading', { level: 1, name: `Mira Castell ${tag}` }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
