// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMailbox } from '@ques/kit';
import type { EmbeddedProduct } from '../embedded.js';
import { call } from '../test/identity-journey.js';
import { browserGate, fetchAsCrawler, launchChromium, newContext, startProduct, watchErrors } from './harness.js';

/*
 * Issue 14 (browser journeys, free questions): a guest asks → the mail has the status link and none of the question's
 * text → the status page shows the question, Pending, and withdraws it after a confirm step → the owner sees it
 * withdrawn; an unknown link is a "Page not found" page; a "Private" question answered with display on stays off the
 * public list and the crawler HTML. Headless Chromium against the built app served by the BFF on the embedded default.
 */

const run = browserGate();
const tag = Date.now().toString(36);
const FIRST = 'Could you review my thesis outline on looms?';
const PRIVATE = 'A private one: how do I ask my boss for a raise?';
const until = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout, interval: 50 });

describe.skipIf(!run)('asker trust in Chromium: status page by mailed link, withdraw, private questions', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;
  let owner: { token: string; username: string; name: string };

  beforeAll(async () => {
    [product, browser] = await Promise.all([startProduct(), launchChromium()]);
    base = product.url;
    const name = 'Ada Trust';
    const res = await call(base, 'POST', '/api/users', { name, email: `ada.${tag}@example.com`, password: 'a long enough password' });
    expect(res.status).toBe(201);
    owner = { token: res.body.token, username: res.body.user.username, name };
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  async function guestAsks(question: string, email: string, opts: { private?: boolean } = {}) {
    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    await page.goto(`/ask/${owner.username}`);
    await page.getByRole('button', { name: `Ask ${owner.name} a Question` }).click();
    const dialog = page.getByRole('dialog', { name: `Ask ${owner.name} a question` });
    await dialog.getByLabel(/Question title/).fill(question);
    expect(await dialog.getByRole('radio', { name: `May be published on ${owner.name}'s page` }).isChecked()).toBe(true);
    if (opts.private) await dialog.getByRole('radio', { name: 'Private — only I see the answer' }).check();
    await dialog.getByRole('checkbox').check();
    await dialog.getByLabel('Your Name').fill('Gina Guest');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Post Question' }).click();
    await until(() => page.getByText(`Your question was sent to ${owner.name}.`).isVisible()).toBe(true);
    await context.close();
  }
  const statusMail = (email: string) =>
    readMailbox(product.mailDir).find((m) => m.to === email && m.subject.startsWith('Your question to'));

  it('mails the link without the question, shows the page, withdraws after a confirm step; the owner sees it withdrawn', async () => {
    const email = `gina.${tag}@example.com`;
    await guestAsks(FIRST, email);
    await until(() => !!statusMail(email)).toBe(true);
    const mail = statusMail(email)!;
    expect(mail.text).toContain(owner.name);
    expect(mail.text).not.toContain('thesis');
    expect(mail.text).not.toContain('Gina');
    const token = /\/q\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;

    const context = await newContext(browser, 'phone', base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`/q/${token}`);
    await until(() => page.getByRole('heading', { name: FIRST }).isVisible()).toBe(true);
    expect(await page.getByTestId('status').textContent()).toBe('Pending');
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
    await page.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByRole('button', { name: 'Yes, withdraw' }).click();
    await until(() => page.getByTestId('status').textContent()).toBe('Withdrawn');
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);

    // The owner's record of it says withdrawn (the inbox lists only what is still theirs to answer).
    const { questionId } = (await call(base, 'GET', `/api/question-status/${token}`)).body as { questionId: string };
    const record = await call(base, 'GET', `/api/questions/${questionId}`, undefined, owner.token);
    expect(record.body).toMatchObject({ question: FIRST, status: 'Withdrawn' });
    const inbox = await call(base, 'GET', '/api/questions?role=receiver', undefined, owner.token);
    expect((inbox.body as { question: string }[]).some((q) => q.question === FIRST && (q as { status?: string }).status === 'Pending')).toBe(false);

    await page.goto(`/q/${'x'.repeat(43)}`);
    await until(() => page.getByRole('heading', { name: 'Page not found' }).isVisible()).toBe(true);
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await context.close();
  });

  it('keeps a "Private" question answered with display on off the public page and the crawler HTML', async () => {
    const email = `pia.${tag}@example.com`;
    await guestAsks(PRIVATE, email, { private: true });
    const inbox = await call(base, 'GET', '/api/questions?role=receiver', undefined, owner.token);
    const row = (inbox.body as { _id: string; question: string; isPrivate?: boolean }[]).find((q) => q.question === PRIVATE)!;
    expect(row.isPrivate).toBe(true);
    const answered = await call(base, 'PUT', `/api/questions/${row._id}/answer`, { answer: 'Bring numbers.', tags: [], displayOnProfile: true }, owner.token);
    expect(answered.status).toBe(200);
    const list = await call(base, 'GET', `/api/questions?username=${owner.username}&role=receiver`);
    expect(JSON.stringify(list.body)).not.toContain('raise');
    const crawler = await fetchAsCrawler(`${base}/ask/${owner.username}`);
    expect(crawler.html).not.toContain('raise');
    const answerPage = await fetchAsCrawler(`${base}/ask/${owner.username}/question/${row._id}`);
    expect(answerPage.html).not.toContain('Bring numbers');

    // The asker still sees the answer on their page.
    await until(() => !!statusMail(email)).toBe(true);
    const token = /\/q\/([A-Za-z0-9_-]{43})/.exec(statusMail(email)!.text)![1]!;
    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    await page.goto(`/q/${token}`);
    await until(() => page.getByText('Bring numbers.').isVisible()).toBe(true);
    expect(await page.getByText('Only you can see this answer.').isVisible()).toBe(true);
    await context.close();
  });
});
