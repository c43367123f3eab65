// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPS_MESSAGES } from '@ques/contracts';
import type { EmbeddedProduct } from '../embedded.js';
import { signup } from '../test/identity-journey.js';
import {
  browserGate,
  logInInBrowser,
  newContext,
  screenshot,
  signInAsOperator,
  releaseShared,
  useShared,
  watchErrors,
  axeViolations as axeIn,
} from './harness.js';

/**
 * The operator console in a browser on the embedded default (issue 18): an operator made with the CLI's code path
 * logs in, opens /ops, creates an archive profile; the public page shows the badge and no ask button. An owner gets
 * the 404 page for /ops and never downloads the console.
 */

/** axe-core on `main` (harness.ts). */
const axeViolations = (page: Page) => axeIn(page, ['main']);

describe.runIf(browserGate())('operator console (browser)', () => {
  let product: EmbeddedProduct;
  let browser: Browser;

  beforeAll(async () => {
    ({ product, browser } = await useShared());
  }, 120_000);
  afterAll(async () => {
    await releaseShared(browser);
  });


  it('an owner gets the 404 page for /ops and never loads the console', async () => {
    await signup(product.url, 'Owen Owner', 'owen.owner@example.com');
    const { context, page, errors, scripts } = await logInInBrowser(browser, product.url, 'owen.owner@example.com');
    const res = await page.goto('/ops/archives');
    expect(res?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(scripts.filter((s) => /\/assets\/(OpsApp|AuditPage|ArchivesPage)-/.test(s))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('an operator creates an archive profile in the console; the public page has the badge and no ask button', async () => {
    const { context, page, errors, scripts } = await signInAsOperator(browser, product, 'Opal Operator', 'opal.operator@example.com');
    await page.goto('/ops');
    await page.getByRole('navigation', { name: 'Operator console' }).waitFor();
    expect(scripts.some((s) => /\/assets\/OpsApp-/.test(s))).toBe(true);
    // A reload of /ops is served: the app handed the session to the server (the /ops cookie).
    expect((await page.reload())?.status()).toBe(200);
    await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Archive profiles' }).click();
    await page.getByRole('heading', { name: 'Archive profiles', level: 1 }).waitFor();
    await page.getByLabel(/^Name/).fill('Pierre Curie');
    await page.getByLabel(/^Bio/).fill('Physicist, Nobel laureate in 1903 with Marie Curie.');
    await page.getByLabel(/^Sources/).fill('Nobel lecture, 1905');
    await page.getByRole('button', { name: 'Create archive profile' }).click();
    await page.getByText('Created @pierre-curie.').waitFor();
    expect(await page.getByRole('list', { name: 'Archive profiles' }).getByText('Sources: Nobel lecture, 1905').isVisible()).toBe(true);
    await screenshot(page, 'ops-archives', 'desktop');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'Created the archive profile @pierre-curie' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();

    const visitor = await newContext(browser, 'phone', product.url);
    const vpage = await visitor.newPage();
    await vpage.goto('/ask/pierre-curie');
    await vpage.getByText('Non-affiliated profile').waitFor();
    expect(await vpage.getByText('Physicist, Nobel laureate in 1903 with Marie Curie.').isVisible()).toBe(true);
    expect(await vpage.getByRole('button', { name: /^Ask .* a Question$/ }).count()).toBe(0);
    await visitor.close();
  }, 120_000);

  it('an operator creates an archive profile with an avatar and two curated answers with sources; the public page shows them', async () => {
    const { context, page, errors } = await signInAsOperator(browser, product, 'Cora Curator', 'cora.curator@example.com');
    await page.goto('/ops/archives');
    await page.getByRole('heading', { name: 'Archive profiles', level: 1 }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The profile, with an avatar picked in the create form (the owner's rules: an image under 2 MB).
    const portrait = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#1f618d' } }).png().toBuffer();
    await page.getByLabel(/^Name/).fill('Grace Brewster Hopper');
    await page.getByLabel(/^Bio/).fill('Computer scientist and rear admiral.');
    await page.getByLabel(/^Sources/).fill('Interviews and lectures, 1967–1986');
    await page.getByLabel(/^Avatar/).setInputFiles({ name: 'grace.png', mimeType: 'image/png', buffer: portrait });
    await page.getByRole('button', { name: 'Create archive profile' }).click();
    await page.getByText('Created @grace-brewster-hopper.').waitFor();
    const card = page.getByRole('list', { name: 'Archive profiles' }).getByRole('listitem').filter({ hasText: '@grace-brewster-hopper' });
    expect(await card.locator('img.avatar').getAttribute('src')).toMatch(/^\/images\/avatars\/[\w-]+\/[a-z0-9]+\.webp/);

    // Its curated Q&A: the source is required, then two answers with theirs.
    await card.getByRole('link', { name: 'Curated Q&A of @grace-brewster-hopper' }).click();
    await page.getByRole('heading', { name: 'Curated Q&A of @grace-brewster-hopper', level: 1 }).waitFor();
    await page.getByText('No curated Q&A yet.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const form = page.getByRole('form', { name: 'Add a curated Q&A' });
    const answers = [
      { question: 'What was the first bug?', answer: 'A moth, taped into the log book in 1947.', source: 'https://example.org/hopper-1968 at 14:05', tag: 'history' },
      { question: 'Why build compilers?', answer: 'People should write programs in English.', source: 'Lecture, MIT, 1985 — page 12 of the transcript', tag: 'compilers' },
    ];
    await form.getByLabel(/^Question title/).fill(answers[0]!.question);
    await form.getByLabel(/^Answer/).fill(answers[0]!.answer);
    await form.getByRole('button', { name: 'Add curated Q&A' }).click();
    await form.getByText(OPS_MESSAGES.sourceRequired).waitFor();
    expect(await form.getByLabel(/^Source/).getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    for (const [i, qa] of answers.entries()) {
      if (i > 0) {
        await form.getByLabel(/^Question title/).fill(qa.question);
        await form.getByLabel(/^Answer/).fill(qa.answer);
      }
      await form.getByLabel('Tags', { exact: true }).fill(qa.tag);
      await form.getByLabel('Tags', { exact: true }).press('Enter');
      await form.getByLabel(/^Source/).fill(qa.source);
      await form.getByRole('button', { name: 'Add curated Q&A' }).click();
      await page.getByRole('list', { name: 'Curated Q&A' }).getByText(`Source: ${qa.source}`).waitFor();
    }
    expect(await page.getByRole('list', { name: 'Curated Q&A' }).getByRole('listitem').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'ops-archive-curated', 'desktop');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'Changed the avatar of the archive profile @grace-brewster-hopper' }).waitFor();
    expect(await page.getByRole('cell', { name: 'Added a curated answer to the archive profile @grace-brewster-hopper' }).count()).toBe(2);
    expect(errors).toEqual([]);
    await context.close();

    // The public page: the avatar, both answers with their sources, the badge, and no ask button.
    const visitor = await newContext(browser, 'phone', product.url);
    const vpage = await visitor.newPage();
    const verrors = watchErrors(vpage);
    await vpage.goto('/ask/grace-brewster-hopper');
    await vpage.getByText('Non-affiliated profile').first().waitFor();
    const avatar = vpage.locator('img.avatar').first();
    expect(await avatar.getAttribute('src')).toMatch(/^\/images\/avatars\/[\w-]+\/[a-z0-9]+\.webp/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    for (const qa of answers) {
      await vpage.getByRole('button', { name: `View Answer ${qa.question}` }).click();
      const back = vpage.getByRole('region', { name: `Answer to: ${qa.question}` });
      await back.getByText(qa.answer).waitFor();
      expect(await back.getByText(`Source: ${qa.source}`).isVisible()).toBe(true);
    }
    expect(await vpage.getByRole('button', { name: /^Ask .* a Question$/ }).count()).toBe(0);
    expect(verrors).toEqual([]);
    await visitor.close();
  }, 180_000);
});
