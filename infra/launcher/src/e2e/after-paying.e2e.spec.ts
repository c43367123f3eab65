// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { call } from '../test/identity-journey.js';
import {
  browserGate,
  horizontalOverflow,
  releaseShared,
  screenshot,
  useShared,
  VIEWPORTS,
  watchErrors,
  type ViewportName,
  axeViolations as axeIn, dateTimeIn, rgb,
} from './harness.js';

/*
 * Issue 28, after paying, in a browser whose time zone is India's (UTC+5:30): a guest asks with a $5 tip through the
 * test-mode checkout and lands on the confirmation page — the amount held and its split, the release date in that
 * zone, the status link; the owner answers; the status page's timeline ends with the charge, in the owner's colours,
 * with the link to the public answer. A free question's confirmation has no money lines. Both pages: axe 0 violations
 * at 390 and 1280 px, no layout shift (CLS 0 from the browser's own layout-shift entries).
 */

const run = browserGate();
const ZONE = 'Asia/Kolkata';
const tag = Date.now().toString(36);
const MAIN = '#0E7C66';
const LIGHT = '#E6F4F0';
const TITLE = 'Could you check my warp calculation before I order yarn?';
const ANSWER = 'Add ten percent for take-up and loom waste; your numbers are otherwise right.';
const until = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

/** A time as the status pages show it in the asker's zone. */
const inZone = (iso: string) => dateTimeIn(iso, ZONE);

/** A context at `viewport` in India's time zone, summing every layout shift without recent input (CLS). */
async function zonedContext(browser: Browser, viewport: ViewportName, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORTS[viewport],
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: ZONE,
    hasTouch: viewport === 'phone',
  });
  context.setDefaultTimeout(10_000);
  await context.addInitScript(() => {
    type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
    const w = window as unknown as { __shifts: string[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Shift[]) {
        if (entry.hadRecentInput) continue;
        const nodes = (entry.sources ?? []).map((s) => {
          const el = s.node as Element | null | undefined;
          return el?.nodeType === 1 ? `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}` : (el?.nodeName ?? '?');
        });
        w.__shifts.push(`${entry.value.toFixed(4)} ${nodes.join(' ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return context;
}
/** Every layout shift since the page loaded (its score and the elements that moved): none is CLS 0. */
const cls = (page: Page) => page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts);

/** axe-core on `main`, the footer (harness.ts). */
const axeViolations = (page: Page) => axeIn(page, ['main', 'footer']);

/** The page at the other width too: axe, no overflow, no layout shift since load, a screenshot. */
async function checkAtBothWidths(browser: Browser, base: string, path: string, ready: (page: Page) => Promise<void>, name: string) {
  for (const viewport of ['phone', 'desktop'] as const) {
    const context = await zonedContext(browser, viewport, base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(path);
    await ready(page);
    await page.waitForTimeout(1200); // a countdown tick or two, and any late layout
    expect(await axeViolations(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBe(0);
    expect(await cls(page)).toEqual([]);
    await screenshot(page, name, viewport);
    expect(errors).toEqual([]);
    await context.close();
  }
}

describe.skipIf(!run)('after paying (issue 28): the confirmation and the order page, in a non-UTC zone', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;
  let owner: { token: string; username: string; name: string; id: string };

  beforeAll(async () => {
    ({ product, browser } = await useShared());
    base = product.url;
    const name = 'Mira Paydue';
    const signed = await call(base, 'POST', '/api/users', { name, email: `mira.${tag}@example.com`, password: 'a long enough password' });
    expect(signed.status).toBe(201);
    owner = { token: signed.body.token, username: signed.body.user.username, name, id: signed.body.user.id };
    const t = owner.token;
    expect((await call(base, 'PUT', '/api/users/profile', { name, brandColorMain: MAIN, brandColorLight: LIGHT }, t)).status).toBe(200);
    const connected = await call(base, 'POST', '/api/payments/connect', { country: 'US' }, t);
    expect(connected.status).toBe(200);
    await fetch(new URL(`${connected.body.url}/complete`, base), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect((await call(base, 'GET', `/api/payments/account-status?userId=${owner.id}`, undefined, t)).status).toBe(200);
    expect((await call(base, 'PUT', '/api/payments/tipOptions', { tipOptions: ['$0', '$5'], tippingEnabled: true }, t)).status).toBe(200);
  });
  afterAll(async () => {
    await releaseShared(browser);
  });

  /** A guest fills the ask modal (with a $5 tip or none) and posts. */
  async function guestAsks(page: Page, title: string, tip: '$5' | 'No tip') {
    await page.goto(`/ask/${owner.username}`);
    await page.getByRole('button', { name: `Ask ${owner.name} a Question` }).click();
    const dialog = page.getByRole('dialog', { name: `Ask ${owner.name} a question` });
    await dialog.getByRole('radio', { name: tip }).check();
    await dialog.getByLabel(/Question title/).fill(title);
    await dialog.getByRole('checkbox').check();
    await dialog.getByLabel('Your Name').fill('Pia Payer');
    await dialog.getByLabel('Email').fill(`pia.${tag}.${tip === '$5' ? 'tip' : 'free'}@example.com`);
    await dialog.getByRole('button', { name: 'Post Question' }).click();
  }

  it('a $5 tip: confirmation with the split, the local release date and the link → answered → the timeline ends charged, in the owner\'s colours, with the public answer', async () => {
    const context = await zonedContext(browser, 'phone', base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await guestAsks(page, TITLE, '$5');
    await page.waitForURL(/\/pay\/test\/checkout\//);
    await page.getByRole('button', { name: 'Pay $5.00' }).click();
    // Straight back to the confirmation page of the link the browser made.
    await page.waitForURL(/\/q\/[A-Za-z0-9_-]{43}\?confirmed=1$/);
    const token = /\/q\/([A-Za-z0-9_-]{43})/.exec(page.url())![1]!;
    await until(() => page.getByRole('heading', { name: `Your question was sent to ${owner.name}.` }).isVisible()).toBe(true);
    expect(await page.getByTestId('money').innerText()).toBe(`$5.00 held · $4.50 to ${owner.name} · $0.50 Ques fee`);
    await until(() => page.getByTestId('status').textContent()).toBe('Pending');
    const api = (await call(base, 'GET', `/api/question-status/${token}`)).body as { questionId: string; tip: { releaseAt: string } };
    const release = inZone(api.tip.releaseAt);
    // The server writes UTC; the page switches to the browser's zone once hydrated (ADR 0058).
    await until(() => page.getByTestId('release').innerText()).toBe(
      `If ${owner.name} hasn’t answered by ${release}, the hold is released — you’re never charged.`,
    );
    // Not the UTC rendering: India is 5 h 30 ahead; the UTC time is the tooltip.
    const releaseTime = page.getByTestId('release').locator('time');
    expect(await releaseTime.getAttribute('title')).toMatch(/ UTC$/);
    expect(await releaseTime.getAttribute('title')).not.toContain(release.split(', ').at(-1)!);
    expect(await page.getByLabel('Keep this link to follow your question:').inputValue()).toBe(`${base}/q/${token}`);
    expect(await cls(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    await checkAtBothWidths(browser, base, `/q/${token}?confirmed=1`, (p) => p.getByTestId('release').locator('time').waitFor(), 'confirmation-tipped');

    // The owner answers (the tip is captured).
    const answered = await call(base, 'PUT', `/api/questions/${api.questionId}/answer`, { answer: ANSWER, tags: [], displayOnProfile: true }, owner.token);
    expect(answered.status).toBe(200);
    await until(async () => ((await call(base, 'GET', `/api/question-status/${token}`)).body.timeline as { step: string }[]).map((s) => s.step)).toEqual([
      'asked',
      'held',
      'answered',
      'charged',
    ]);

    const later = await zonedContext(browser, 'desktop', base);
    const status = await later.newPage();
    await status.goto(`/q/${token}`);
    await until(() => status.getByText(ANSWER).isVisible()).toBe(true);
    const page2 = (await call(base, 'GET', `/api/question-status/${token}`)).body as { timeline: { step: string; at: string }[]; answerPath: string };
    const steps = status.getByTestId('timeline').locator('li');
    expect(await steps.evaluateAll((lis) => lis.map((li) => (li as HTMLElement).dataset.step))).toEqual(['asked', 'held', 'answered', 'charged']);
    expect(await steps.nth(3).innerText()).toContain('$5.00 charged');
    await until(() => steps.nth(3).locator('time').innerText()).toBe(inZone(page2.timeline[3]!.at));
    expect(await status.getByTestId('consent').innerText()).toBe(`Published on ${owner.name}'s page`);
    expect(await status.getByText(/May be published/).count()).toBe(0);
    // In the owner's colours.
    expect(await status.locator('.status-page__owner').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(LIGHT));
    expect(await steps.nth(3).locator('.status-timeline__dot').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(rgb(MAIN));
    // The public answer, one click away.
    const link = status.getByRole('link', { name: `See the public answer on ${owner.name}’s page` });
    expect(await link.getAttribute('href')).toBe(page2.answerPath);
    expect(page2.answerPath).toMatch(new RegExp(`^/ask/${owner.username}/question/`));
    expect(await cls(status)).toEqual([]);
    await link.click();
    await until(() => status.getByRole('heading', { name: TITLE }).isVisible()).toBe(true);
    await later.close();
    await checkAtBothWidths(browser, base, `/q/${token}`, (p) => p.getByText(ANSWER).waitFor(), 'status-charged');
  });

  it('a free question: the same confirmation without any money line', async () => {
    const context = await zonedContext(browser, 'phone', base);
    const page = await context.newPage();
    await guestAsks(page, 'Is a floor loom worth it for a beginner?', 'No tip');
    await page.waitForURL(/\/q\/[A-Za-z0-9_-]{43}\?confirmed=1$/);
    await until(() => page.getByRole('heading', { name: `Your question was sent to ${owner.name}.` }).isVisible()).toBe(true);
    expect(await page.getByTestId('money').count()).toBe(0);
    expect(await page.getByTestId('tip').count()).toBe(0);
    expect(await page.getByTestId('confirmation').innerText()).not.toMatch(/\$|charged|held/);
    expect(await page.getByRole('button', { name: 'Copy link' }).isVisible()).toBe(true);
    const path = new URL(page.url()).pathname + new URL(page.url()).search;
    await context.close();
    await checkAtBothWidths(browser, base, path, (p) => p.getByTestId('confirmation').waitFor(), 'confirmation-free');
  });
});
