// Functions passed to page.evaluate run in the browser.
/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_MESSAGES } from '@ques/contracts/core';
import type { EmbeddedProduct } from '../embedded.js';
import { call, TEST_PASSWORD } from '../test/identity-journey.js';
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

/*
 * Issue 18, "Done when" (the claim journey, ADR 0034), on the embedded default in headless Chromium: an operator (made
 * with the CLI's code path, `grant-operator`) creates an archive profile in the console; it has a curated answer with
 * its source. A visitor opens the page, follows "Is this you? Claim this profile", signs up (and comes back), says how
 * to verify them and sends the claim; two other operators approve it in the console ("Profile claims", confirmed; the first leaves it at "1 of 2 approvals"). The
 * claimant then logs in with their own e-mail and password as the page's owner; the public page has no badge, has the
 * ask button, and the curated answer is still there. The new pages are checked with axe (0 violations).
 */

const run = browserGate();
const QA = {
  question: 'What should we fear in life?',
  answer: 'Nothing in life is to be feared, it is only to be understood.',
  source: 'Our Friend the Atom, 1956',
};
const until = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

/** axe-core on `main`, a modal, any dialog (harness.ts). */
const axeViolations = (page: Page) => axeIn(page, ['main', '.modal-backdrop', '[role="dialog"]']);

describe.runIf(run)('claiming an archive profile (browser)', () => {
  let product: EmbeddedProduct;
  let browser: Browser;

  beforeAll(async () => {
    ({ product, browser } = await useShared());
  }, 120_000);
  afterAll(async () => {
    await releaseShared(browser);
  });

  it('a visitor claims an archive, two operators approve it, the claimant owns the page and its answers stay', async () => {
    // The operator creates the archive in the console.
    const op = await signInAsOperator(browser, product, 'Opal Operator', 'opal.claims@example.com');
    await op.page.goto('/ops');
    const nav = op.page.getByRole('navigation', { name: 'Operator console' });
    await nav.waitFor();
    await nav.getByRole('link', { name: 'Archive profiles' }).click();
    await op.page.getByRole('heading', { name: 'Archive profiles', level: 1 }).waitFor();
    await op.page.getByLabel(/^Name/).fill('Marie Curie');
    await op.page.getByLabel(/^Bio/).fill('Physicist and chemist, twice a Nobel laureate.');
    await op.page.getByLabel(/^Sources/).fill('Nobel lectures, 1903 and 1911');
    await op.page.getByRole('button', { name: 'Create archive profile' }).click();
    await op.page.getByText('Created @marie-curie.').waitFor();
    // Its curated answer, with the source the console requires.
    await op.page
      .getByRole('list', { name: 'Archive profiles' })
      .getByRole('listitem')
      .filter({ hasText: '@marie-curie' })
      .getByRole('link', { name: 'Curated Q&A of @marie-curie' })
      .click();
    const form = op.page.getByRole('form', { name: 'Add a curated Q&A' });
    await form.getByLabel(/^Question title/).fill(QA.question);
    await form.getByLabel(/^Answer/).fill(QA.answer);
    await form.getByLabel(/^Source/).fill(QA.source);
    await form.getByRole('button', { name: 'Add curated Q&A' }).click();
    await op.page.getByRole('list', { name: 'Curated Q&A' }).getByText(`Source: ${QA.source}`).waitFor();

    // A visitor opens the archive page and claims it, signing up on the way.
    const visitor = await newContext(browser, 'phone', product.url);
    const vpage = await visitor.newPage();
    const verrors = watchErrors(vpage);
    await vpage.goto('/ask/marie-curie');
    await vpage.getByText('Non-affiliated profile').waitFor();
    await vpage.getByText('What should we fear in life?').first().waitFor();
    await vpage.getByRole('link', { name: 'Is this you? Claim this profile' }).click();
    await vpage.getByRole('heading', { name: 'Is this you? Claim Marie Curie’s page', level: 1 }).waitFor();
    expect(await axeViolations(vpage)).toEqual([]);
    await vpage.getByRole('link', { name: 'Sign up to claim' }).click();
    await vpage.waitForURL((url) => url.pathname === '/signup');
    await vpage.getByLabel('Name').fill('Marie Sklodowska');
    await vpage.getByLabel('Email').fill('marie@sorbonne.example');
    await vpage.getByLabel('Password').fill(TEST_PASSWORD);
    await vpage.getByRole('checkbox').check();
    await vpage.getByRole('button', { name: 'Sign Up' }).click();
    // Back to the claim, signed in.
    await vpage.waitForURL((url) => url.pathname === '/ask/marie-curie/claim');
    await vpage.getByRole('group', { name: 'How can we verify you?' }).waitFor();
    await vpage.getByRole('radio', { name: 'A link from my official site' }).check();
    await vpage.getByLabel(/^Link from your official site/).fill('https://sorbonne.example/curie');
    await vpage
      .getByLabel(/^Note for the reviewers/)
      .fill('My lab page at the Sorbonne links to this profile.');
    expect(await axeViolations(vpage)).toEqual([]);
    await screenshot(vpage, 'claim-form', 'phone');
    await vpage.getByRole('button', { name: 'Send claim' }).click();
    await vpage.getByRole('heading', { name: 'Your claim is waiting for review' }).waitFor();
    expect(verrors).toEqual([]);

    // Two other operators approve it in the console, after confirming (four eyes, ADR 0054): the archive's creator
    // may not; the first approval leaves the claim waiting for a second operator.
    await op.context.close();
    const approveAs = async (name: string, email: string, done: string) => {
      const reviewer = await signInAsOperator(browser, product, name, email);
      await reviewer.page.goto('/ops/claims');
      await reviewer.page.getByRole('heading', { name: 'Profile claims', level: 1 }).waitFor();
      const claim = reviewer.page.getByTestId('profile-claim').filter({ hasText: 'marie@sorbonne.example' });
      await claim.getByText('https://sorbonne.example/curie').waitFor();
      expect(await axeViolations(reviewer.page)).toEqual([]);
      await claim.getByRole('button', { name: 'Approve…' }).click();
      const dialog = reviewer.page.getByRole('dialog', { name: 'Approve this claim of @marie-curie?' });
      await dialog.waitFor();
      expect(await axeViolations(reviewer.page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Approve claim' }).click();
      await reviewer.page.getByText(done).waitFor();
      return reviewer;
    };
    const pip = await approveAs('Pip Operator', 'pip.claims@example.com', `${CLAIM_MESSAGES.awaitingSecond} (1 of 2 approvals)`);
    await pip.page
      .getByTestId('profile-claim')
      .filter({ hasText: 'marie@sorbonne.example' })
      .getByText('1 of 2 approvals')
      .waitFor();
    expect(pip.errors).toEqual([]);
    await pip.context.close();
    const quinn = await approveAs(
      'Quinn Operator',
      'quinn.claims@example.com',
      '@marie-curie is now an ordinary profile its claimant signs in to.',
    );
    await quinn.page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Audit log' }).click();
    await quinn.page.getByRole('cell', { name: /Approved @marie-sklodowska's claim of @marie-curie/ }).waitFor();
    expect(quinn.errors).toEqual([]);
    await quinn.context.close();
    await visitor.close();

    // The claimant logs in with their own e-mail and password: they are the page's owner now.
    const owner = await logInInBrowser(browser, product.url, 'marie@sorbonne.example');
    await until(async () => {
      await owner.page.goto('/ask/marie-curie');
      await owner.page.getByText('You are viewing your own public page').waitFor();
      return owner.page.getByText('Non-affiliated profile').count();
    }).toBe(0);
    await owner.page.goto('/ask/marie-curie/claim');
    await owner.page.getByRole('heading', { name: 'Your claim was approved' }).waitFor();
    expect(owner.errors).toEqual([]);
    await owner.context.close();

    // Anyone else sees an ordinary profile: no badge, the ask button, the curated answer with its source.
    const guest = await newContext(browser, 'desktop', product.url);
    const gpage = await guest.newPage();
    await until(async () => {
      await gpage.goto('/ask/marie-curie');
      return gpage.getByRole('button', { name: 'Ask Marie Curie a Question' }).count();
    }).toBe(1);
    expect(await gpage.getByText('Non-affiliated profile').count()).toBe(0);
    expect(await gpage.getByRole('link', { name: 'Is this you? Claim this profile' }).count()).toBe(0);
    // The curated card (its answer on the card's back) is still there, with its source.
    await gpage.getByRole('button', { name: 'View Answer What should we fear in life?' }).click();
    const back = gpage.getByRole('region', { name: `Answer to: ${QA.question}` });
    await back.getByText(QA.answer).waitFor();
    expect(await back.getByText(`Source: ${QA.source}`).isVisible()).toBe(true);
    const answers = await call(product.url, 'GET', '/api/questions?username=marie-curie&role=receiver');
    expect(answers.body.map((q: { source?: string }) => q.source)).toEqual([QA.source]);
    await guest.close();
  }, 180_000);
});
