import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { signup, TEST_PASSWORD } from '../test/identity-journey.js';
import { grantOperator } from '../test/operators.js';
import { browserGate, launchChromium, newContext, screenshot, startProduct, watchErrors } from './harness.js';

/**
 * The operator console in a browser on the embedded default (issue 18): an operator made with the CLI's code path
 * logs in, opens /ops, creates an archive profile; the public page shows the badge and no ask button. An owner gets
 * the 404 page for /ops and never downloads the console.
 */
describe.runIf(browserGate())('operator console (browser)', () => {
  let product: EmbeddedProduct;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const logIn = async (email: string) => {
    const context = await newContext(browser, 'desktop', product.url);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    return { context, page, errors, scripts };
  };

  it('an owner gets the 404 page for /ops and never loads the console', async () => {
    await signup(product.url, 'Owen Owner', 'owen.owner@example.com');
    const { context, page, errors, scripts } = await logIn('owen.owner@example.com');
    const res = await page.goto('/ops/archives');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(scripts.filter((s) => /\/assets\/(OpsApp|AuditPage|ArchivesPage)-/.test(s))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('an operator creates an archive profile in the console; the public page has the badge and no ask button', async () => {
    await signup(product.url, 'Opal Operator', 'opal.operator@example.com');
    await grantOperator(product, 'opal.operator@example.com');
    const { context, page, errors, scripts } = await logIn('opal.operator@example.com');
    await page.goto('/ops');
    await page.getByRole('navigation', { name: 'Operator console' }).waitFor();
    expect(scripts.some((s) => /\/assets\/OpsApp-/.test(s))).toBe(true);
    // A reload of /ops is served: the app handed the session to the server (the /ops cookie).
    expect((await page.reload())?.status()).toBe(200);
    await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Archive profiles' }).click();
    await page.getByRole('heading', { name: 'Archive profiles', level: 1 }).waitFor();
    await page.getByLabel(/^Name/).fill('Marie Curie');
    await page.getByLabel(/^Bio/).fill('Physicist and chemist, twice a Nobel laureate.');
    await page.getByLabel(/^Sources/).fill('Nobel lectures, 1903 and 1911');
    await page.getByRole('button', { name: 'Create archive profile' }).click();
    await page.getByText('Created @marie-curie.').waitFor();
    expect(await page.getByRole('list', { name: 'Archive profiles' }).getByText('Sources: Nobel lectures, 1903 and 1911').isVisible()).toBe(true);
    await screenshot(page, 'ops-archives', 'desktop');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'Created the archive profile @marie-curie' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const visitor = await newContext(browser, 'phone', product.url);
    const vpage = await visitor.newPage();
    await vpage.goto('/ask/marie-curie');
    await vpage.getByText('Non-affiliated profile').waitFor();
    expect(await vpage.getByText('Physicist and chemist, twice a Nobel laureate.').isVisible()).toBe(true);
    expect(await vpage.getByRole('button', { name: /^Ask .* a Question$/ }).count()).toBe(0);
    await visitor.close();
  }, 120_000);
});
