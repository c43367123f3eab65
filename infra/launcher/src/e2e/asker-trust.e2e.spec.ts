// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feeBreakdownText } from '@ques/contracts';
import { readMailbox } from '@ques/kit';
import type { EmbeddedProduct } from '../embedded.js';
import { call } from '../test/identity-journey.js';
import {
  browserGate,
  fetchAsCrawler,
  horizontalOverflow,
  newContext,
  seedSession,
  releaseShared,
  useShared,
  watchErrors,
} from './harness.js';

/*
 * Issue 14's browser journeys. Free questions: a guest asks → the mail has the status link and none of the question's
 * text → the status page shows the question, Pending, and withdraws it after a confirm step → the owner sees it
 * withdrawn; an unknown link is a "Page not found" page in the product's layout; a "Private" question answered with
 * display on stays off the public page, the sitemap and the crawler HTML. Tipped questions (an owner who takes tips
 * through the local test-mode provider): the fee breakdown in the ask modal and on the hosted checkout page, the
 * hold with its countdown and release date, Withdraw → "Released — never charged" and Withdrawn in the owner's inbox;
 * a second one answered in the admin → the answer and "Charged $5.00 on {date}", its answer mail only once the link
 * was opened. "Already answered?" before paying (also with typos), and the redacted wording on the public pages.
 * Headless Chromium against the built app served by the BFF on the embedded default.
 */

const run = browserGate();
const tag = Date.now().toString(36);
const FIRST = 'Could you review my thesis outline on looms?';
const PRIVATE = 'A private one: how do I ask my boss for a raise?';
const until = <T>(fn: () => T | Promise<T>, timeout = 10_000) => expect.poll(fn, { timeout, interval: 50 });
const TIPPED = 'Would you mentor me through my first loom build?';
const TIPPED_DETAIL = 'I have a Jacquard attachment and no idea where to start.';
const ANSWERED = 'Which warp yarn should a beginner buy?';
const ANSWER = 'Cotton 8/2: forgiving, cheap, and it shows your mistakes kindly.';
const CURATED_Q = 'How do I price a consulting workshop?';
const CURATED_A = 'Per day, never per hour; a discount from the third one.';
const REDACT_ORIGINAL = 'I am Jane Roe from 12 Elm Street: what rent is fair for a studio?';
const REDACT_PUBLIC = 'What rent is fair for a studio?';
/** What the status page shows as a date in the browser's zone (UTC in these contexts): "Sun 6 Dec, 11:59" (issue 28). */
function longDate(iso: string): string {
  const parts = (d: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })
        .formatToParts(d)
        .map((p) => [p.type, p.value]),
    ) as Record<string, string>;
  const p = parts(new Date(iso));
  return `${p.weekday} ${p.day} ${p.month}${p.year !== parts(new Date()).year ? ` ${p.year}` : ''}, ${p.hour}:${p.minute}`;
}
const tokenIn = (text: string) => /\/q\/([A-Za-z0-9_-]{43})/.exec(text)![1]!;

describe.skipIf(!run)('asker trust in Chromium: status page by mailed link, withdraw, private questions', () => {
  let product: EmbeddedProduct;
  let browser: Browser;
  let base: string;
  let owner: { token: string; username: string; name: string };
  let ownerRefresh: string;
  let ownerUser: { username: string; id: string } & Record<string, unknown>;
  /** An owner who takes tips ($5) through the test-mode provider, signed in in the browser for the admin. */
  let tipped: {
    token: string;
    username: string;
    name: string;
    session: { accessToken: string; refreshToken: string; user: { username: string } & Record<string, unknown> };
  };

  beforeAll(async () => {
    // One after the other: the embedded product's start keeps the event loop busy, and Chromium's launch has a timeout.
    ({ product, browser } = await useShared());
    base = product.url;
    const name = 'Ada Trust';
    const res = await call(base, 'POST', '/api/users', { name, email: `ada.${tag}@example.com`, password: 'a long enough password' });
    expect(res.status).toBe(201);
    owner = { token: res.body.token, username: res.body.user.username, name };
    ownerRefresh = res.body.refreshToken;
    ownerUser = res.body.user;

    // The tipped owner: a payout account completed on the test-mode onboarding page, tipping on with $5.
    const weaver = 'Anni Weaver';
    const signed = await call(base, 'POST', '/api/users', { name: weaver, email: `anni.${tag}@example.com`, password: 'a long enough password' });
    expect(signed.status).toBe(201);
    const token = signed.body.token as string;
    const connected = await call(base, 'POST', '/api/payments/connect', { country: 'US' }, token);
    expect(connected.status).toBe(200);
    const completed = await fetch(new URL(`${connected.body.url}/complete`, base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(completed.status).toBe(303);
    // Reading the account's status re-reads it from the provider (onboarding complete).
    expect((await call(base, 'GET', `/api/payments/account-status?userId=${signed.body.user.id}`, undefined, token)).status).toBe(200);
    const saved = await call(base, 'PUT', '/api/payments/tipOptions', { tipOptions: ['$0', '$5'], tippingEnabled: true }, token);
    expect(saved.status).toBe(200);
    tipped = {
      token,
      username: signed.body.user.username,
      name: weaver,
      session: { accessToken: token, refreshToken: signed.body.refreshToken, user: signed.body.user },
    };
  });
  afterAll(async () => {
    await releaseShared(browser);
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
  const answerMails = (email: string) =>
    readMailbox(product.mailDir).filter((m) => m.to === email && m.subject.includes('answered your question'));

  /** Opens the tipped owner's ask modal as a guest, with the title typed (and the page, to go on). */
  async function openAskModal(title: string) {
    const context = await newContext(browser, 'phone', base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`/ask/${tipped.username}`);
    await page.getByRole('button', { name: `Ask ${tipped.name} a Question` }).click();
    const dialog = page.getByRole('dialog', { name: `Ask ${tipped.name} a question` });
    await dialog.getByRole('radio', { name: '$5' }).waitFor();
    await dialog.getByLabel(/Question title/).fill(title);
    return { context, page, dialog, errors };
  }

  /** A guest asks the tipped owner with a $5 tip: the breakdown in the modal, then on the test-mode checkout page. */
  async function guestTips(question: string, email: string, detail = '') {
    const { context, page, dialog, errors } = await openAskModal(question);
    if (detail) await dialog.getByLabel('Description').fill(detail);
    expect(await dialog.getByTestId('fee-breakdown').count()).toBe(0);
    await dialog.getByRole('radio', { name: '$5' }).check();
    const breakdown = feeBreakdownText(tipped.name, 500, 'usd');
    expect(breakdown).toContain(`${tipped.name} receives $4.50 · Ques fee (10 %) $0.50`);
    await until(() => dialog.getByTestId('fee-breakdown').textContent()).toBe(breakdown);
    expect(await dialog.getByTestId('fee-breakdown').isVisible()).toBe(true);
    await dialog.getByRole('checkbox').check();
    await dialog.getByLabel('Your Name').fill('Tess Tipper');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByRole('button', { name: 'Post Question' }).click();
    // The hosted checkout page (test mode) says the same before the card is touched.
    await page.waitForURL(/\/pay\/test\/checkout\//);
    expect(await page.getByTestId('fee-breakdown').textContent()).toBe(breakdown);
    expect(await page.getByTestId('fee-breakdown').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Pay $5.00' }).click();
    await page.waitForURL(/\/q\/[A-Za-z0-9_-]{43}\?confirmed=1$/);
    await until(() => page.getByText(`Your question was sent to ${tipped.name}.`).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  }

  /** The tipped owner's inbox in the browser. */
  async function ownerInbox() {
    const context = await newContext(browser, 'desktop', base);
    await seedSession(context, tipped.session);
    const page = await context.newPage();
    await page.goto('/admin');
    await page.getByRole('heading', { level: 1, name: 'Question Received' }).waitFor();
    await page.getByText('Loading questions...').waitFor({ state: 'detached' });
    return { context, page, row: (q: string) => page.locator('table.q-table tbody tr').filter({ hasText: q }) };
  }

  /** Waits until the mail queue has sent everything queued before now (a later status mail is out). */
  async function mailsDrained() {
    const marker = `marker.${Math.random().toString(36).slice(2)}@example.com`;
    const res = await call(base, 'POST', '/api/questions', {
      question: 'Marker question?',
      detail: '',
      tip: 0,
      toUserId: ownerUser.id,
      toUsername: owner.username,
      askedName: 'Marker',
      askedEmail: marker,
      agreedToTerms: true,
    });
    expect(res.status).toBe(201);
    await until(() => !!statusMail(marker)).toBe(true);
  }

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

    // The owner's record of it says withdrawn, and their inbox lists it so.
    const { questionId } = (await call(base, 'GET', `/api/question-status/${token}`)).body as { questionId: string };
    const record = await call(base, 'GET', `/api/questions/${questionId}`, undefined, owner.token);
    expect(record.body).toMatchObject({ question: FIRST, status: 'Withdrawn' });
    const inbox = await call(base, 'GET', '/api/questions?role=receiver', undefined, owner.token);
    expect((inbox.body as { question: string; status: string }[]).filter((q) => q.question === FIRST).map((q) => q.status)).toEqual(['Withdrawn']);

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
    // Nor in the sitemap (where a public answer of the same owner is).
    const open = await call(base, 'POST', '/api/questions', { isCurated: true, question: 'A public one: what is a fair raise?', answer: 'Ask for numbers.', tags: [], displayOnProfile: true, tip: 0 }, owner.token);
    expect(open.status).toBe(201);
    const index = await fetchAsCrawler(`${base}/sitemap.xml`);
    const answerMaps = [...index.html.matchAll(/<loc>([^<]*answers[^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(answerMaps.length).toBeGreaterThan(0);
    const sitemap = (await Promise.all(answerMaps.map(async (loc) => (await fetchAsCrawler(new URL(new URL(loc).pathname + new URL(loc).search, base).toString())).html))).join('\n');
    expect(sitemap).toContain(open.body._id);
    expect(sitemap).not.toContain(row._id);
    // Nor on the public page in a browser.
    const visitor = await newContext(browser, 'phone', base);
    const profile = await visitor.newPage();
    await profile.goto(`/ask/${owner.username}`);
    await profile.getByText('Loading questions...').waitFor({ state: 'detached' });
    await until(() => profile.getByTestId('flip-card').filter({ hasText: 'A public one' }).count()).toBe(1);
    expect(await profile.locator('body').innerText()).not.toContain('boss');
    await visitor.close();
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

  it('tipped: the breakdown before paying, the hold with its countdown and release date, Withdraw → released, Withdrawn in the inbox', async () => {
    const email = `tess.${tag}@example.com`;
    await guestTips(TIPPED, email, TIPPED_DETAIL);
    await until(() => !!statusMail(email)).toBe(true);
    const mail = statusMail(email)!;
    expect(mail.text).toContain(tipped.name);
    // ADR 0053: a tipped question's receipt names its title (a card was authorised for it), never its detail or the
    // name typed; the subject stays free of both.
    expect(mail.text).toContain(`Question: ${TIPPED}`);
    expect(mail.text).toContain('Amount held: $5.00');
    for (const typed of ['Jacquard', 'Tess']) expect(mail.text).not.toContain(typed);
    for (const typed of ['mentor', 'loom', 'Jacquard', 'Tess']) expect(mail.subject).not.toContain(typed);
    const token = tokenIn(mail.text);
    const { tip } = (await call(base, 'GET', `/api/question-status/${token}`)).body as { tip: { releaseAt: string } };

    const context = await newContext(browser, 'phone', base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`/q/${token}`);
    await until(() => page.getByRole('heading', { name: TIPPED }).isVisible()).toBe(true);
    expect(await page.getByText(TIPPED_DETAIL).isVisible()).toBe(true);
    expect(await page.getByTestId('status').textContent()).toBe('Pending');
    const held = page.getByTestId('tip');
    expect(await held.innerText()).toContain(`Your card is held for $5.00 — you are not charged unless ${tipped.name} answers.`);
    // Asked a moment ago: 4 d 23 h left, and the date of the automatic release.
    expect(await page.getByTestId('countdown').textContent()).toMatch(
      new RegExp(`^Released automatically in 4 d 23 h \\d\\d min \\d\\d s, on ${longDate(tip.releaseAt)}\\.$`),
    );
    expect(Date.parse(tip.releaseAt) - Date.now()).toBeGreaterThan(4.9 * 86_400_000);
    expect(await horizontalOverflow(page)).toBe(0);

    await page.getByRole('button', { name: 'Withdraw' }).click();
    // A click before the server-rendered page hydrated is replayed once it has (ADR 0058).
    await until(() => page.getByText('the hold on your card is released').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Yes, withdraw' }).click();
    await until(() => page.getByTestId('status').textContent()).toBe('Withdrawn');
    await until(() => held.innerText()).toBe('Released — never charged.');
    expect(await page.getByTestId('countdown').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    // Reopened from the link: the same.
    await page.reload();
    await until(() => page.getByTestId('tip').innerText()).toBe('Released — never charged.');
    expect(errors).toEqual([]);
    await context.close();

    // The owner's inbox lists it, Withdrawn, its tip released, nothing to do.
    const inbox = await ownerInbox();
    const row = inbox.row(TIPPED);
    await until(() => row.locator('.status-tag').textContent()).toBe('Withdrawn');
    expect(await row.locator('td[data-label="Tip"]').innerText()).toMatch(/\$5\s+Released/i);
    expect(await row.getByRole('button').count()).toBe(0);
    await inbox.context.close();
  });

  it('tipped and answered: the answer mail waits for the link to be opened; the page shows the answer and "Charged $5.00 on {date}"', async () => {
    const email = `tom.${tag}@example.com`;
    await guestTips(ANSWERED, email);
    await until(() => !!statusMail(email)).toBe(true);
    const token = tokenIn(statusMail(email)!.text);

    // The owner answers in the admin (the tip is captured).
    const inbox = await ownerInbox();
    await until(() => inbox.row(ANSWERED).count()).toBe(1);
    await inbox.row(ANSWERED).getByRole('button', { name: 'Reply' }).click();
    const modal = inbox.page.getByRole('dialog', { name: 'Answer question' });
    await modal.getByLabel(/Your answer/).fill(ANSWER);
    await modal.getByRole('button', { name: 'Post Answer' }).click();
    await until(() => inbox.row(ANSWERED).locator('.status-tag').textContent()).toBe('Answered');
    await inbox.context.close();
    const { questionId } = (await call(base, 'GET', `/api/question-status/${token}`)).body as { questionId: string };
    await until(async () => (await call(base, 'GET', `/api/questions/${questionId}`, undefined, tipped.token)).body.tipStatus).toBe('captured');

    // Not opened yet: every mail queued so far is out, and none is the answer.
    await mailsDrained();
    expect(answerMails(email)).toEqual([]);

    const context = await newContext(browser, 'desktop', base);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`/q/${token}`);
    await until(() => page.getByText(ANSWER).isVisible()).toBe(true);
    expect(await page.getByTestId('status').textContent()).toBe('Answered');
    const { tip } = (await call(base, 'GET', `/api/question-status/${token}`)).body as { tip: { chargedAt: string } };
    expect(await page.getByTestId('tip').innerText()).toBe(`Charged $5.00 on ${longDate(tip.chargedAt)}.`);
    expect(await page.getByRole('button', { name: 'Withdraw' }).count()).toBe(0);
    // Opened: now the answer is mailed, once.
    await until(() => answerMails(email).length).toBe(1);
    expect(answerMails(email)[0]!.text).toContain(ANSWER);
    await page.reload();
    await until(() => page.getByText(ANSWER).isVisible()).toBe(true);
    await mailsDrained();
    expect(answerMails(email)).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('"already answered?": a close title shows the public answer before paying, also with a typo in every word', async () => {
    const curated = await call(
      base,
      'POST',
      '/api/questions',
      { isCurated: true, question: CURATED_Q, answer: CURATED_A, tags: [], displayOnProfile: true, tip: 0 },
      tipped.token,
    );
    expect(curated.status).toBe(201);
    const { context, page, dialog, errors } = await openAskModal('What should I price a workshop at?');
    const similar = dialog.getByTestId('similar-answers');
    await until(() => similar.isVisible()).toBe(true);
    const suggestion = similar.getByRole('button', { name: CURATED_Q });
    expect(await suggestion.getAttribute('aria-expanded')).toBe('false');
    await suggestion.click();
    await until(() => similar.getByText(CURATED_A).isVisible()).toBe(true);
    // Nothing was paid, nothing asked: still the form, Post Question one click away.
    expect(page.url()).toBe(`${base}/ask/${tipped.username}`);
    expect(await dialog.getByRole('button', { name: 'Post Question' }).isEnabled()).toBe(true);

    // Typos in every word: full-text search finds nothing, the trigram fallback does.
    const typed = 'how do i prise a consultng workshp';
    expect((await call(base, 'GET', `/api/asking/similar/${tipped.username}?q=${encodeURIComponent('prise consultng workshp')}`)).body).toHaveLength(1);
    await dialog.getByLabel(/Question title/).fill('zzz unrelated');
    await until(() => similar.count()).toBe(0);
    await dialog.getByLabel(/Question title/).fill(typed);
    await until(() => dialog.getByTestId('similar-answers').getByRole('button', { name: CURATED_Q }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('publishes the redacted wording on the public pages and in the crawler HTML; the asker sees both', async () => {
    const email = `rae.${tag}@example.com`;
    await guestAsks(REDACT_ORIGINAL, email);
    await until(() => !!statusMail(email)).toBe(true);
    const token = tokenIn(statusMail(email)!.text);

    // The owner answers and edits the public wording in the admin.
    const context = await newContext(browser, 'desktop', base);
    await seedSession(context, { accessToken: owner.token, refreshToken: ownerRefresh, user: ownerUser });
    const admin = await context.newPage();
    await admin.goto('/admin');
    await admin.getByText('Loading questions...').waitFor({ state: 'detached' });
    const row = admin.locator('table.q-table tbody tr').filter({ hasText: REDACT_ORIGINAL });
    await row.getByRole('button', { name: 'Reply' }).click();
    const modal = admin.getByRole('dialog', { name: 'Answer question' });
    await modal.getByLabel(/Your answer/).fill('Compare three listings on the same street.');
    await modal.getByText('Edit the public wording (remove personal details)').click();
    await modal.getByLabel('Public question').fill(REDACT_PUBLIC);
    await modal.getByRole('button', { name: 'Post Answer' }).click();
    await until(() => row.locator('.status-tag').textContent()).toBe('Answered');

    // A visitor: the redacted wording on the profile and the answer page, never the original.
    const visitor = await context.browser()!.newContext({ baseURL: base, viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
    const page = await visitor.newPage();
    await page.goto(`/ask/${owner.username}`);
    await page.getByText('Loading questions...').waitFor({ state: 'detached' });
    const card = page.getByTestId('flip-card').filter({ hasText: REDACT_PUBLIC });
    await until(() => card.count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toContain('Elm Street');
    const { questionId } = (await call(base, 'GET', `/api/question-status/${token}`)).body as { questionId: string };
    await page.goto(`/ask/${owner.username}/question/${questionId}`);
    await until(() => page.getByRole('heading', { name: REDACT_PUBLIC }).isVisible()).toBe(true);
    expect(await page.locator('body').innerText()).not.toContain('Elm Street');
    const crawler = await fetchAsCrawler(`${base}/ask/${owner.username}/question/${questionId}`);
    expect(crawler.html).toContain(REDACT_PUBLIC);
    expect(crawler.html).not.toContain('Elm Street');
    expect((await fetchAsCrawler(`${base}/ask/${owner.username}`)).html).not.toContain('Elm Street');

    // The asker's page: both wordings, and that it was redacted.
    await page.goto(`/q/${token}`);
    await until(() => page.getByRole('heading', { name: REDACT_ORIGINAL }).isVisible()).toBe(true);
    expect(await page.getByTestId('redacted').innerText()).toContain(REDACT_PUBLIC);
    expect(await page.getByTestId('redacted').innerText()).toContain('redacted the public wording');
    await visitor.close();
    await context.close();
  });

  it('answers an unknown or malformed link with "Page not found" in the product\'s layout', async () => {
    const context = await newContext(browser, 'phone', base);
    const page = await context.newPage();
    for (const bad of ['x'.repeat(43), 'not-a-token', `${'A'.repeat(42)}%21`]) {
      await page.goto(`/q/${bad}`);
      await until(() => page.getByRole('heading', { level: 1, name: 'Page not found' }).isVisible()).toBe(true);
      expect(await page.getByText('This status page does not exist. Check the link in your e-mail.').isVisible()).toBe(true);
      // The site's header and footer around it, a way home, and nothing of any question.
      expect(await page.locator('header.site-header').isVisible()).toBe(true);
      expect(await page.locator('footer.site-footer').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
      expect(await page.getByTestId('status').count()).toBe(0);
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
      expect(await horizontalOverflow(page)).toBe(0);
    }
    await context.close();
  });
});
