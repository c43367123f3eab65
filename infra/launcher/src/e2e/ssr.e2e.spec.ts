// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { call, signup } from '../test/identity-journey.js';
import { browserGate, fetchAsCrawler, newContext, releaseShared, useShared } from './harness.js';

/*
 * Issue 13, server-rendered public pages (docs/adr/0024): the profile and answer pages work with JavaScript off,
 * hydrate without errors or hydration warnings with it on (the ask modal, flip cards and tag filter then work), go
 * out compressed, and a deleted person disappears from the rendered HTML at once (issue 12, defect 6).
 */

const run = browserGate();
const tag = Date.now().toString(36);
const NAME = 'Katherine Johnson';
const BIO = 'Mathematician at NASA. I computed the trajectories of Freedom 7 and Apollo 11.';
const ANSWERS = Array.from({ length: 20 }, (_, i) => ({
  question: `Trajectory question number ${i + 1}: how did you check orbit ${i + 1}?`,
  answer: `Answer ${i + 1}: by hand, with a desk calculator, twice, before the IBM 7090 run was trusted.`,
  tags: i % 2 === 0 ? ['orbits'] : ['computing'],
}));

const until = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 50 });

describe.skipIf(!run)('server-rendered public pages in Chromium, served by the BFF on the embedded default', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;
  let owner: Awaited<ReturnType<typeof signup>>;
  const questionIds: string[] = [];

  beforeAll(async () => {
    ({ product, browser } = await useShared());
    base = product.url;
    owner = await signup(base, NAME, `katherine.${tag}@example.com`);
    expect((await call(base, 'PUT', '/api/users/profile', { bio: BIO }, owner.token)).status).toBe(200);
    for (const qa of ANSWERS) {
      const created = await call(
        base,
        'POST',
        '/api/questions',
        { isCurated: true, ...qa, displayOnProfile: true, tip: 0 },
        owner.token,
      );
      expect(created.status).toBe(201);
      questionIds.push(created.body._id as string);
    }
  });
  afterAll(async () => {
    await releaseShared(browser);
  });

  /** Console errors and warnings, and uncaught errors (a hydration mismatch is reported as one of these). */
  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('console', (msg: ConsoleMessage) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
    });
    return problems;
  }

  it('shows the name, bio and answered questions, and the answer page its question and answer, without JavaScript', async () => {
    const context = await browser.newContext({ baseURL: base, javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const res = await page.goto(`/ask/${owner.username}`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1.profile__name').textContent()).toBe(NAME);
    expect(await page.locator('.profile__bio').textContent()).toBe(BIO);
    // The newest first, all 20 of them, each question readable and its answer in the document.
    expect(await page.getByTestId('flip-card').count()).toBe(20);
    expect(await page.getByText(ANSWERS[19]!.question).first().isVisible()).toBe(true);
    expect(await page.getByText(ANSWERS[0]!.question).first().isVisible()).toBe(true);
    expect(await page.content()).toContain(ANSWERS[19]!.answer);
    expect(await page.getByText('Loading').count()).toBe(0);
    // Nothing left for a script to swap in (CSP allows no inline script; without JavaScript none runs).
    expect(await page.locator('#root template, #root [hidden][id^="S:"]').count()).toBe(0);
    expect(await page.getByText('needs JavaScript').count()).toBe(0);

    // Links work without the app: the answer page is rendered too.
    const href = await page.locator('.qa-card__title a').first().getAttribute('href');
    expect(href).toMatch(new RegExp(`^/ask/${owner.username}/question/${questionIds[19]}/`));
    await page.goto(href!);
    expect(await page.locator('h1.qa-page__question').textContent()).toBe(ANSWERS[19]!.question);
    expect(await page.locator('.qa-page__answer').textContent()).toBe(ANSWERS[19]!.answer);
    expect(await page.locator('.qa-page__owner-name').textContent()).toBe(NAME);

    // Home and the legal pages are whole documents too.
    await page.goto('/');
    expect(await page.locator('h1').first().textContent()).toContain('Your personal FAQ.');
    await page.goto('/terms-of-use');
    expect(await page.locator('h1').first().textContent()).toBe('Terms of Use');
    await context.close();
  });

  it('hydrates without errors or hydration warnings; flip cards, the tag filter and the ask modal then work', async () => {
    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    const problems = watch(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.goto(`/ask/${owner.username}`);
    expect(await page.getByTestId('flip-card').count()).toBe(20);
    // Before any intent the page loaded only the small public entry: no API call, no app chunk.
    expect(requests.filter((p) => p.startsWith('/api/'))).toEqual([]);
    expect(requests.some((p) => /\/assets\/shared-/.test(p))).toBe(false);

    // The first click on a card (before the app is there) is held, and replayed once the page is hydrated.
    const card = page.getByTestId('flip-card').filter({ hasText: ANSWERS[19]!.question });
    await card.getByRole('button', { name: /View Answer/ }).click();
    await until(() => card.locator('.qa-card__answer').getByText(ANSWERS[19]!.answer).isVisible()).toBe(true);
    expect(requests.some((p) => /\/assets\/shared-/.test(p))).toBe(true);
    // Hydrated from the embedded data: still no API call for the page's data.
    expect(requests.filter((p) => p.startsWith('/api/'))).toEqual([]);

    // Tag filter.
    await page.getByRole('button', { name: '#computing' }).click();
    await until(() => page.getByTestId('flip-card').count()).toBe(10);
    await page.getByRole('button', { name: /^All/ }).click();
    await until(() => page.getByTestId('flip-card').count()).toBe(20);

    // Ask modal.
    await page.getByRole('button', { name: `Ask ${NAME} a Question` }).click();
    await page.getByRole('dialog').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('hydrates the answer page and the home page without errors', async () => {
    const context = await newContext(browser, 'phone', base);
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`/ask/${owner.username}/question/${questionIds[3]}/x`);
    expect(await page.locator('h1.qa-page__question').textContent()).toBe(ANSWERS[3]!.question);
    // A pointer over the page is intent: the app loads and hydrates.
    const app = page.waitForRequest(/\/assets\/shared-/);
    await page.locator('.qa-page__owner').hover();
    await app;
    await until(() => page.locator('.qa-page__owner').evaluate((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$')))).toBe(true);
    await page.locator('.qa-page__owner').click();
    await until(() => page.locator('h1.profile__name').textContent()).toBe(NAME);
    await page.goto('/');
    const home = page.waitForRequest(/\/assets\/HomePage-/);
    await page.getByRole('link', { name: 'Terms of Use' }).first().hover();
    await home;
    await page.getByRole('link', { name: 'Terms of Use' }).first().click();
    await until(() => page.locator('h1').first().textContent()).toBe('Terms of Use');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sends pages and assets compressed', async () => {
    const script = /<script type="module" crossorigin id="ques-app" src="([^"]+)" data-app="([^"]+)"/.exec(
      (await fetchAsCrawler(`${base}/ask/${owner.username}`)).html,
    );
    expect(script).not.toBeNull();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(`${base}/ask/${owner.username}`, { headers: { 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await res.text()).toContain(ANSWERS[19]!.answer);
      for (const asset of [script![1]!, script![2]!]) {
        const raw = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': 'identity' } });
        const packed = await fetch(`${base}${asset}`, { headers: { 'accept-encoding': encoding } });
        expect(raw.headers.get('content-encoding')).toBeNull();
        expect(packed.headers.get('content-encoding')).toBe(encoding);
        // fetch decodes the body: the bytes must be the original's.
        expect(Buffer.from(await packed.arrayBuffer()).equals(Buffer.from(await raw.arrayBuffer()))).toBe(true);
      }
    }
  });

  it("drops a deleted person's name and answers from the rendered HTML at once", async () => {
    const before = await fetchAsCrawler(`${base}/ask/${owner.username}`);
    expect(before.html).toContain(NAME);
    const answerPage = `${base}/ask/${owner.username}/question/${questionIds[0]}/x`;
    expect((await fetchAsCrawler(answerPage)).html).toContain(ANSWERS[0]!.answer);

    const deleted = await call(base, 'DELETE', `/api/users/profile/${owner.id}`, undefined, owner.token);
    expect(deleted.status).toBe(200);
    const after = await fetchAsCrawler(`${base}/ask/${owner.username}`);
    expect(after.status).toBe(404);
    expect(after.html).not.toContain(NAME);
    expect(after.html).not.toContain(BIO);
    expect(after.html).not.toContain(ANSWERS[19]!.question);
    const gone = await fetchAsCrawler(answerPage);
    expect(gone.status).toBe(404);
    expect(gone.html).not.toContain(NAME);
  });
});
