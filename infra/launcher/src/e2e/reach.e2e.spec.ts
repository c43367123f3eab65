// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseFeed } from '@rowanmanning/feed-parser';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedProduct } from '../embedded.js';
import { signup } from '../test/identity-journey.js';
import { SEEDED, seedTimedOwner, type SeededOwner } from '../test/reach-seed.js';
import { browserGate, controllableClock, releaseShared, useSharedBrowser, newContext, startProduct, watchErrors } from './harness.js';

/*
 * Issue 15 in Chromium (docs/adr/0029): the profile of an owner with ≥ 5 answered questions shows the trust stats
 * for the seeded timings (and a new owner "New on Ques"), with no axe violations; the answer page's og:image is a
 * 1200×630 PNG whose question band differs between two answers (the footer is the same), and the RTL + emoji
 * question's image renders its emoji; the feed the profile's <head> links validates and lists exactly the public
 * answers.
 */

const run = browserGate();
const tag = Date.now().toString(36);
const RTL_EMOJI = 'מה שלומך היום? 😀 كيف حالك؟';
const require = createRequire(import.meta.url);

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
/** Pixels that differ between two same-sized images within rows [top, bottom). */
function differing(a: Buffer, b: Buffer, width: number, top: number, bottom: number): number {
  let n = 0;
  for (let i = top * width * 3; i < bottom * width * 3; i += 3)
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
}

describe.skipIf(!run)('reach in Chromium: trust stats, share images, feed', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;
  let seeded: SeededOwner;
  const clock = controllableClock();

  beforeAll(async () => {
    // One after the other: the embedded product's start keeps this process busy (PGlite), and a browser launched
    // meanwhile can miss its launch timeout on a loaded machine.
    product = await startProduct(clock.now);
    browser = await useSharedBrowser();
    base = product.url;
    seeded = await seedTimedOwner(base, clock, 'Grace Hopper', `grace.${tag}@example.com`, { d6: RTL_EMOJI });
  }, 120_000);
  afterAll(async () => {
    await releaseShared(browser);
    await product?.stop();
  });

  it('shows the stats for the seeded timings on the profile and in its JSON-LD, with no axe violations', async () => {
    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`/ask/${seeded.owner.username}`);
    await expect.poll(() => page.getByTestId('trust-median').textContent()).toBe(SEEDED.medianText);
    expect(await page.getByTestId('trust-window').textContent()).toBe(SEEDED.windowText);
    expect(await page.getByTestId('trust-public').textContent()).toBe(String(SEEDED.publicAnswers));
    expect(await page.getByText('Answered within 5 days').isVisible()).toBe(true);
    const jsonLd = await page.locator('script[type="application/ld+json"]').first().textContent();
    expect(jsonLd).toContain('Median time to answer');
    expect(jsonLd).toContain('"value":3600'); // 2.5 days in minutes
    // Nothing of the private question anywhere on the page.
    expect(await page.content()).not.toContain('contract');

    // Hydrated (first intent) it still shows the same figures.
    await page.mouse.move(10, 10);
    await page.waitForTimeout(500);
    expect(await page.getByTestId('trust-median').textContent()).toBe(SEEDED.medianText);

    // axe-core evaluated through the driver (the page's CSP forbids an injected script tag, rightly).
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe.run(document);
      return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);

    const fresh = await signup(base, 'Fresh Face', `fresh.${tag}@example.com`);
    await page.goto(`/ask/${fresh.username}`);
    expect(await page.getByTestId('trust-new').textContent()).toBe('New on Ques');
    expect(await page.getByTestId('trust-stats').count()).toBe(0);
    await context.close();
  });

  it("uses a 1200×630 PNG per answer as og:image: the question band differs between answers, the RTL + emoji one renders", async () => {
    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    const imageOf = async (id: string) => {
      await page.goto(`/ask/${seeded.owner.username}/question/${id}`);
      const og = await page.locator('meta[property="og:image"]').getAttribute('content');
      expect(await page.locator('meta[name="twitter:image"]').getAttribute('content')).toBe(og);
      const res = await page.request.get(og!);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toBe('image/png');
      return pixels(await res.body());
    };
    const a = await imageOf(seeded.questions.h1!);
    const b = await imageOf(seeded.questions.h3!);
    const rtl = await imageOf(seeded.questions.d6!);
    for (const img of [a, b, rtl]) expect([img.width, img.height]).toEqual([1200, 630]);
    // The question band (top) differs; the footer (name, avatar, brand) is the same owner's.
    expect(differing(a.data, b.data, 1200, 40, 260)).toBeGreaterThan(2_000);
    expect(differing(a.data, b.data, 1200, 480, 630)).toBe(0);
    // The RTL + emoji question: ink in the question band, and the emoji's yellow (Twemoji #FFCC4D).
    let ink = 0;
    let yellow = 0;
    for (let y = 40; y < 260; y++)
      for (let x = 60; x < 1160; x++) {
        const i = (y * 1200 + x) * 3;
        const [r, g, bl] = [rtl.data[i]!, rtl.data[i + 1]!, rtl.data[i + 2]!];
        if (r < 80 && g < 80 && bl < 80) ink++;
        if (r > 230 && g > 180 && g < 225 && bl < 110) yellow++;
      }
    expect(ink).toBeGreaterThan(1_000);
    expect(yellow).toBeGreaterThan(200);
    await context.close();
  });

  it('links a valid Atom feed from the profile <head> that lists exactly the public answers', async () => {
    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    await page.goto(`/ask/${seeded.owner.username}`);
    const link = page.locator('link[rel="alternate"][type="application/atom+xml"]');
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`/ask/${seeded.owner.username}/feed\\.atom$`));
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    const feed = parseFeed(await res.text());
    expect(feed.meta.type).toBe('atom');
    expect(feed.items.map((i) => i.id?.replace('urn:uuid:', ''))).toEqual(seeded.publicIds);
    expect(feed.items.find((i) => i.id?.endsWith(seeded.questions.d6!))?.title).toBe(RTL_EMOJI);
    await context.close();
  });
});
