// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { call, signup } from '../test/identity-journey.js';
import { browserGate, releaseShared, screenshot, useShared, type ViewportName } from './harness.js';

/*
 * Issue 28, public pages that do not move: the server-rendered profile already has the layout the browser keeps (CSS
 * grid columns by media query, no script measuring them), so the first pointer move, scroll or Tab — the intent that
 * hydrates the page (src/public-entry.ts) — moves no card by a pixel and changes no node, and no layout shift is ever
 * recorded. Cards show the start of the answer and its date. The profile and an answer page have no axe violations,
 * and "Report" waits in the ⋯ menu after the ask button.
 */

const run = browserGate();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const tag = Date.now().toString(36);
const NAME = 'Dorothy Vaughan';
const LONG = 'I taught myself FORTRAN and then taught my whole section, because the machines were coming either way. '.repeat(3);
const ANSWERS = Array.from({ length: 8 }, (_, i) => ({
  question:
    i % 3 === 0
      ? `Question ${i + 1}: how did the West Area Computing unit prepare for the IBM 7090, and what did you teach first?`
      : `Question ${i + 1}: what did you compute?`,
  answer: i % 2 === 0 ? `Answer ${i + 1}: ${LONG}` : `Answer ${i + 1}: flight paths, by hand.`,
  tags: [i % 2 === 0 ? 'computing' : 'flight'],
}));
/** The desktop size, and the phone. */
const SIZES: { name: ViewportName; viewport: { width: number; height: number } }[] = [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];
const INPUTS = ['mouse move', 'scroll', 'Tab'] as const;

const until = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 50 });

/** Every card's box in page coordinates (independent of the scroll position), to the pixel. */
const cardBoxes = (page: Page) =>
  page.$$eval('[data-testid="flip-card"]', (cards) =>
    cards.map((card) => {
      const r = card.getBoundingClientRect();
      return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height].map((n) => Math.round(n));
    }),
  );
const hydrated = (page: Page) =>
  page.$$eval('.qa-card__front', (fronts) => fronts.length > 0 && fronts.every((el) => Object.keys(el).some((k) => k.startsWith('__reactProps$'))));
/** Two frames: whatever hydration and its effects change has been laid out. */
const frames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
  return violations;
}

describe.skipIf(!run)('the public profile does not move (issue 28), in Chromium', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;
  let owner: Awaited<ReturnType<typeof signup>>;
  const ids: string[] = [];

  beforeAll(async () => {
    ({ product, browser } = await useShared());
    base = product.url;
    owner = await signup(base, NAME, `dorothy.${tag}@example.com`);
    for (const qa of ANSWERS) {
      const created = await call(base, 'POST', '/api/questions', { isCurated: true, ...qa, displayOnProfile: true, tip: 0 }, owner.token);
      expect(created.status).toBe(201);
      ids.push(created.body._id as string);
    }
  });
  afterAll(async () => {
    await releaseShared(browser);
  });

  const open = async (viewport: { width: number; height: number }, path: string) => {
    const context = await browser.newContext({ baseURL: base, viewport, deviceScaleFactor: 1, locale: 'en-US', timezoneId: 'UTC' });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    // Every layout shift from the first paint on, whether or not it followed an input (CLS leaves those out), with
    // what moved: a failure names it.
    await page.addInitScript(() => {
      type Shift = { value: number; sources: { node?: Node | null }[] };
      const shifts: string[] = ((window as unknown as { __shifts: string[] }).__shifts = []);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Shift[]) {
          const moved = entry.sources.map((s) => (s.node instanceof Element ? s.node.outerHTML.slice(0, 100) : String(s.node?.nodeName)));
          shifts.push(`${entry.value}: ${moved.join(' | ')}`);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await page.evaluate(() => document.fonts.ready);
    return { context, page };
  };
  const shifts = (page: Page) => page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts);

  it('keeps every card where the server put it through the first mouse move, scroll and Tab, at 1280 and 390 px', async () => {
    for (const { viewport } of SIZES) {
      for (const input of INPUTS) {
        const { context, page } = await open(viewport, `/ask/${owner.username}`);
        const before = await cardBoxes(page);
        const gridHtml = await page.locator('.answer-grid').evaluate((el) => el.outerHTML);
        expect(before, `${viewport.width}px`).toHaveLength(ANSWERS.length);
        expect(await hydrated(page)).toBe(false);
        // Columns as the viewport has room for them, from the server on: 3 on desktop, 1 on a phone.
        const columns = new Set(before.map(([left]) => left)).size;
        expect(columns, `${viewport.width}px`).toBe(viewport.width >= 1040 ? 3 : 1);

        if (input === 'mouse move') {
          await page.mouse.move(viewport.width / 2, 200);
          await page.mouse.move(viewport.width / 2 + 40, 260);
        } else if (input === 'scroll') {
          await page.mouse.move(viewport.width - 5, viewport.height - 5);
          await page.mouse.wheel(0, 400);
        } else await page.keyboard.press('Tab');
        await until(() => hydrated(page)).toBe(true);
        await frames(page);

        expect(await cardBoxes(page), `${viewport.width}px, ${input}`).toEqual(before);
        // Hydration kept the server's nodes as they were (the dates are UTC here, as on the server).
        expect(await page.locator('.answer-grid').evaluate((el) => el.outerHTML), `${viewport.width}px, ${input}`).toBe(gridHtml);
        expect(await shifts(page), `${viewport.width}px, ${input}`).toEqual([]);
        await context.close();
      }
    }
  });

  it('shows each card’s question, the start of its answer (clamped) and its date', async () => {
    const { context, page } = await open(SIZES[0]!.viewport, `/ask/${owner.username}`);
    const cards = await page.$$eval('[data-testid="flip-card"] .qa-card__front', (fronts) =>
      fronts.map((front) => {
        const preview = front.querySelector<HTMLElement>('.qa-card__preview')!;
        const time = front.querySelector('time');
        return {
          preview: preview.textContent ?? '',
          clamped: preview.scrollHeight > preview.clientHeight,
          lines: Math.round(preview.clientHeight / parseFloat(getComputedStyle(preview).lineHeight)),
          datetime: time?.getAttribute('datetime') ?? '',
          date: time?.textContent ?? '',
        };
      }),
    );
    // Newest first.
    const newest = [...ANSWERS].reverse();
    expect(cards.map((c) => c.preview.slice(0, 10))).toEqual(newest.map((qa) => qa.answer.slice(0, 10)));
    for (const card of cards) {
      expect(card.datetime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(card.date).toBe(new Date(card.datetime).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }));
      expect(card.lines).toBeLessThanOrEqual(3);
    }
    // The long answers are cut to a few lines; the short ones shown whole.
    expect(cards.filter((c) => c.clamped).length).toBeGreaterThan(0);
    expect(cards.find((c) => c.preview.startsWith('Answer 2:'))!.preview).toBe(ANSWERS[1]!.answer);
    await context.close();
  });

  it('has no axe violations on the profile and an answer page at 1280 and 390 px; Report waits in the ⋯ menu', async () => {
    for (const { name, viewport } of SIZES) {
      const { context, page } = await open(viewport, `/ask/${owner.username}`);
      expect(await axeViolations(page), `profile ${viewport.width}px`).toEqual([]);
      await screenshot(page, 'public-grid-profile', name);
      // The ⋯ menu comes after the ask button in reading order and opens from the keyboard.
      const ask = page.getByRole('button', { name: `Ask ${NAME} a Question` });
      const more = page.getByRole('button', { name: 'More actions for this page' });
      expect(await page.getByRole('button', { name: /Report/ }).count()).toBe(0);
      expect(await ask.evaluate((el, other) => Boolean(el.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING), await more.elementHandle())).toBe(true);
      await more.focus();
      await until(() => hydrated(page)).toBe(true);
      await page.keyboard.press('Enter');
      await until(() => more.getAttribute('aria-expanded')).toBe('true');
      expect(await page.getByRole('menuitem').allTextContents()).toEqual(['Copy link to this page', 'Report this profile']);
      expect(await page.getByRole('menuitem', { name: 'Copy link to this page' }).evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await axeViolations(page), `profile menu ${viewport.width}px`).toEqual([]);
      await page.keyboard.press('Escape');
      await until(() => more.getAttribute('aria-expanded')).toBe('false');
      expect(await more.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await shifts(page)).toEqual([]);
      await context.close();

      const answer = await open(viewport, `/ask/${owner.username}/question/${ids[0]}/x`);
      await answer.page.locator('h1.qa-page__question').waitFor();
      expect(await answer.page.locator('.qa-page__meta time').getAttribute('datetime')).toMatch(/^\d{4}-/);
      expect(await axeViolations(answer.page), `answer page ${viewport.width}px`).toEqual([]);
      await screenshot(answer.page, 'public-grid-answer', name);
      await answer.context.close();
    }
  });
});
