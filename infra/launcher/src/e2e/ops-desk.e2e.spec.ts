// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { createServer } from 'node:net';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionsEvents } from '@ques/contracts';
import { readMailbox, type ConsumerDefinition } from '@ques/kit';
import type { QuestionsDB } from '@ques/questions';
import { startEmbedded, type EmbeddedProduct } from '../embedded.js';
import { call, signup, verifyEmail } from '../test/identity-journey.js';
import { browserGate, releaseShared, useSharedBrowser, newContext, seedSession, watchErrors, WEB_DIST, type BrowserSession, axeViolations as axeIn } from './harness.js';
import { makeOperator } from './operator.js';

/*
 * Issue 18, "Done when" (the desk half, ADR 0032), on the embedded default in headless Chromium:
 * - a dead letter parked by a test consumer that fails is retried from the console and applied exactly once;
 * - a support request sent from the support modal appears in the console and is marked answered (the requester gets
 *   the note by e-mail);
 * - an answer reported from its public page and hidden by the operator disappears from the public page, its answer
 *   page and the sitemap, and its owner sees why in their inbox.
 * Every console page is checked with axe (0 violations) and driven by keyboard where it matters.
 */

const run = browserGate();
const tag = Date.now().toString(36);
const until = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

/** The flaky consumer: fails while `failing` is set (parking the event after two failures), then applies it. */
const flaky = { failing: true };
const flakyConsumer: ConsumerDefinition<QuestionsDB> = {
  durable: 'questions--e2e-flaky',
  context: 'questions',
  maxDeliver: 2,
  handlers: {
    QuestionAsked: {
      schema: QuestionsEvents.QuestionAsked.schema,
      effect: async (trx, envelope: { data: { questionId: string } }) => {
        if (flaky.failing) throw new Error('e2e: the flaky consumer fails on purpose');
        await sql`CREATE TABLE IF NOT EXISTS e2e_applied (question_id text NOT NULL)`.execute(trx);
        await sql`INSERT INTO e2e_applied (question_id) VALUES (${envelope.data.questionId})`.execute(trx);
      },
    },
  },
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** axe-core on `main`, a modal, any dialog (harness.ts). */
const axeViolations = (page: Page) => axeIn(page, ['main', '.modal-backdrop', '[role="dialog"]']);

describe.skipIf(!run)('operator desk in Chromium: dead letters, support requests, abuse reports', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;
  let operator: BrowserSession;
  let owner: Awaited<ReturnType<typeof signup>>;

  beforeAll(async () => {
    const port = await freePort();
    // One after the other: the machine is shared, and Chromium's start has a 30 s limit.
    browser = await useSharedBrowser();
    [product] = await Promise.all([
      startEmbedded({
        port,
        publicOrigin: `http://127.0.0.1:${port}`,
        dataDir: null,
        logLevel: 'silent',
        authRateLimitPerMinute: 1000,
        webDist: WEB_DIST,
        testConsumers: { questions: [flakyConsumer] },
        env: { OPERATOR_EMAILS: `olive.ops.${tag}@example.com` },
      }),
    ]);
    base = product.url;
    operator = await makeOperator(product, `olive.ops.${tag}@example.com`, 'Olive Operator');
    owner = await signup(base, 'Grace Owner', `grace.${tag}@example.com`);
    await verifyEmail(base, product.mailDir, owner.email);
  }, 120_000);

  afterAll(async () => {
    await releaseShared(browser);
    await product?.stop();
  });

  const asOperator = async () => {
    const context = await newContext(browser, 'desktop', base);
    await seedSession(context, operator);
    // The BFF serves /ops pages to an operator's browser only (its HttpOnly cookie, set from the token).
    const session = await context.request.post(`${base}/api/ops/session`, { headers: { authorization: `Bearer ${operator.accessToken}` } });
    expect(session.status()).toBe(204);
    const page = await context.newPage();
    return { context, page, errors: watchErrors(page) };
  };

  const guestAsks = async (question: string) => {
    const res = await call(base, 'POST', '/api/questions', {
      question,
      detail: '',
      tip: 0,
      isCurated: false,
      toUsername: owner.username,
      toUserId: owner.id,
      askedName: 'Gus Guest',
      askedEmail: `gus.${tag}@example.com`,
      agreedToTerms: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };

  it('retries a dead letter from the console: applied exactly once, a second retry finds nothing', async () => {
    const applied = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM e2e_applied`.execute(product.services.questions.ctx.db).catch(() => ({ rows: [{ n: 0 }] })))
        .rows[0]!.n;
    const questionId = await guestAsks('Which book made you start programming?');
    const letters = () =>
      product.services.questions.ctx.db.selectFrom('dead_letters').selectAll().where('consumer', '=', 'questions--e2e-flaky').execute();
    await until(async () => (await letters()).length).toBe(1);
    const [letter] = await letters();
    expect(letter!.event_id).toBeTruthy();
    expect(await applied()).toBe(0);
    flaky.failing = false;

    const { context, page, errors } = await asOperator();
    await page.goto('/ops/streams');
    await page.getByRole('heading', { name: 'Event streams' }).waitFor();
    await page.getByRole('button', { name: 'questions', exact: true }).click();
    const item = page.getByTestId('dead-letter').filter({ hasText: `#${letter!.id}` });
    await item.waitFor();
    expect(await item.textContent()).toContain('questions--e2e-flaky');
    // The payload is shown with personal fields masked.
    await item.getByText('Payload (personal fields masked)').click();
    const payload = await item.locator('pre').textContent();
    expect(payload).toContain(questionId);
    expect(payload).not.toContain(`gus.${tag}@example.com`);
    expect(await axeViolations(page)).toEqual([]);

    // By keyboard: focus Retry, Enter, then confirm in the dialog.
    await item.getByRole('button', { name: `Retry #${letter!.id}` }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Retry dead letter #${letter!.id}?` });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await until(() => page.getByText(`Dead letter #${letter!.id}: applied.`).isVisible()).toBe(true);
    await until(() => page.getByText('No dead letters in questions.').isVisible()).toBe(true);
    expect(await applied()).toBe(1);
    expect(await letters()).toEqual([]);

    // Again through the API: the same key replays the first answer, a new key finds no letter; still applied once.
    const token = operator.accessToken;
    const retry = (key: string) =>
      fetch(`${base}/api/ops/streams/questions/dead-letters/${letter!.id}/retry`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    expect((await retry(`again-${tag}`)).body).toMatchObject({ outcome: 'not found' });
    expect(await applied()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a support request sent from the modal and marks it answered; the requester gets the note', async () => {
    const requester = await signup(base, 'Rita Requester', `rita.${tag}@example.com`);
    await verifyEmail(base, product.mailDir, requester.email);
    const context = await newContext(browser, 'desktop', base);
    await seedSession(context, {
      accessToken: requester.token,
      refreshToken: requester.refreshToken,
      user: { username: requester.username, name: 'Rita Requester', email: requester.email, id: requester.id, _id: requester.id },
    });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Support', exact: true }).click();
    const modal = page.getByRole('dialog', { name: 'Support' });
    await modal.waitFor();
    const title = `My payout is missing ${tag}`;
    await modal.getByLabel('Category').selectOption('Billing Issue');
    await modal.getByLabel(/^Title/).fill(title);
    await modal.getByLabel(/^Description/).fill('The tip from last week does not show in my earnings.');
    await modal.getByRole('button', { name: 'Send' }).click();
    // Sent: the modal closes, a toast says so (issue 28).
    await page.getByRole('region', { name: 'Notifications' }).getByText('Your support request has been sent.').waitFor({ timeout: 30_000 });
    await modal.waitFor({ state: 'detached' });
    await context.close();

    const ops = await asOperator();
    await ops.page.goto('/ops/support');
    await ops.page.getByRole('heading', { name: 'Support requests' }).waitFor();
    const item = ops.page.getByTestId('support-request').filter({ hasText: title });
    await item.waitFor();
    expect(await item.textContent()).toContain('The tip from last week does not show in my earnings.');
    expect(await item.textContent()).toContain(`${requester.username} (signed in)`);
    expect(await axeViolations(ops.page)).toEqual([]);
    // Filtered by another category it is not listed.
    await ops.page.getByLabel('Category').selectOption('Technical Issue');
    await until(() => ops.page.getByText('No support requests here.').isVisible()).toBe(true);
    await ops.page.getByLabel('Category').selectOption('Billing Issue');
    await item.waitFor();

    await item.getByRole('button', { name: 'Mark answered…' }).click();
    const dialog = ops.page.getByRole('dialog', { name: `Answer "${title}"` });
    await dialog.getByRole('button', { name: 'Mark answered' }).click();
    await until(() => dialog.getByText('Please write a note.').isVisible()).toBe(true);
    const note = `Your payout left on Monday; it reaches your bank within 2 days. (${tag})`;
    await dialog.getByLabel(/^Note to the requester/).fill(note);
    expect(await axeViolations(ops.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Mark answered' }).click();
    await until(() => ops.page.getByText('The request is marked answered.').isVisible()).toBe(true);
    // Open list: answered ones leave it; the Answered filter shows it with the note.
    await until(() => ops.page.getByTestId('support-request').filter({ hasText: title }).count()).toBe(0);
    await ops.page.getByLabel('Status').selectOption('answered');
    await until(() => ops.page.getByTestId('support-request').filter({ hasText: note }).count()).toBe(1);

    const mails = () => readMailbox(product.mailDir).filter((m) => m.to.includes(requester.email) && m.text.includes(note));
    await until(() => mails().length).toBe(1);
    expect(mails()[0]!.subject).toBe(`Re: ${title}`);
    // Listed again (the filter reloads it): the mail is recorded.
    await until(async () => {
      await ops.page.getByLabel('Status').selectOption('open');
      await ops.page.getByLabel('Status').selectOption('answered');
      return ops.page.getByTestId('support-request').filter({ hasText: 'mailed to the requester' }).count();
    }).toBe(1);
    expect(ops.errors).toEqual([]);
    await ops.context.close();
  });

  it('hides a reported answer: gone from the public page, answer page and sitemap; the owner sees why', async () => {
    const question = `What is the hardest bug you fixed ${tag}?`;
    const questionId = await guestAsks(question);
    const answered = await call(base, 'PUT', `/api/questions/${questionId}/answer`, { answer: 'An off-by-one in a date parser.' }, owner.token);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);

    // A guest reports it from the answer page (the captcha solves itself).
    const visitorContext = await newContext(browser, 'desktop', base);
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/ask/${owner.username}/question/${questionId}`);
    await visitor.getByRole('heading', { name: question }).waitFor();
    // Issue 28: Report waits in the page's ⋯ menu (which opens once the page has hydrated on the first intent).
    const more = visitor.getByRole('button', { name: /^More actions/ });
    const reportItem = visitor.getByRole('menuitem', { name: 'Report this answer' });
    await more.hover();
    await expect
      .poll(async () => {
        if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
        return reportItem.isVisible();
      }, { timeout: 10_000 })
      .toBe(true);
    await reportItem.click();
    const report = visitor.getByRole('dialog', { name: 'Report this answer' });
    await report.waitFor();
    await report.getByLabel(/^Reason/).selectOption('Personal information');
    await report.getByLabel(/^Note/).fill('It names a private person.');
    await report.getByRole('button', { name: 'Send report' }).click();
    await until(() => report.getByText('Thank you. Our team will look at this report.').isVisible(), 30_000).toBe(true);
    await visitorContext.close();

    const ops = await asOperator();
    await ops.page.goto('/ops/reports');
    await ops.page.getByRole('heading', { name: 'Abuse reports' }).waitFor();
    const item = ops.page.getByTestId('abuse-report').filter({ hasText: 'It names a private person.' });
    await item.waitFor();
    expect(await item.textContent()).toContain('Answer: Personal information');
    expect(await axeViolations(ops.page)).toEqual([]);
    await item.getByRole('button', { name: 'Hide answer…' }).click();
    const dialog = ops.page.getByRole('dialog', { name: 'Hide this answer from public view?' });
    const reason = 'It names a private person without their consent.';
    await dialog.getByLabel(/^Reason/).fill(reason);
    await dialog.getByRole('button', { name: 'Hide answer' }).click();
    await until(() => ops.page.getByText('The answer is hidden; its owner sees why.').isVisible()).toBe(true);
    await ops.page.getByLabel('Status').selectOption('hidden');
    await until(() => ops.page.getByTestId('abuse-report').filter({ hasText: reason }).count()).toBe(1);
    expect(ops.errors).toEqual([]);
    await ops.context.close();

    // Gone from the public page (server-rendered HTML), its answer page and the sitemap.
    await until(async () => (await fetch(`${base}/ask/${owner.username}`).then((r) => r.text())).includes(question)).toBe(false);
    expect((await fetch(`${base}/ask/${owner.username}/question/${questionId}`)).status).toBe(404);
    expect(await fetch(`${base}/sitemap/answers.xml`).then((r) => r.text())).not.toContain(questionId);
    // The owner cannot show it again, and sees why in their inbox.
    const show = await call(base, 'PATCH', `/api/questions/${questionId}`, { displayOnProfile: true }, owner.token);
    expect(show.status).toBe(409);
    const ownerContext = await newContext(browser, 'desktop', base);
    await seedSession(ownerContext, {
      accessToken: owner.token,
      refreshToken: owner.refreshToken,
      user: { username: owner.username, name: 'Grace Owner', email: owner.email, id: owner.id, _id: owner.id },
    });
    const inbox = await ownerContext.newPage();
    await inbox.goto('/admin');
    await until(() => inbox.getByText(`Hidden by Ques: ${reason}`).first().isVisible()).toBe(true);
    await ownerContext.close();
  });
});
