import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_WINDOW_MS } from '@ques/contracts';
import { startEmbedded, type EmbeddedProduct } from './embedded.js';
import { call, signup as signupThroughBff } from './test/identity-journey.js';

let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

/**
 * Issue 4's first done-when, walked with plain HTTP through the BFF on the embedded default (PGlite, in-process bus,
 * the local test-mode payment provider) the way a new owner and a guest would.
 */
describe('tipped questions through the BFF on the embedded default (test-mode payments)', () => {
  let product: EmbeddedProduct;
  let base: string;
  beforeAll(async () => {
    product = await startEmbedded({ port: 0, dataDir: null, logLevel: 'silent', authRateLimitPerMinute: 1000, clock });
    base = product.url;
  });
  afterAll(async () => product?.stop());

  /** What a browser does on the test-mode pages: an empty form post, answered with a redirect. */
  const press = async (url: string) => {
    const res = await fetch(new URL(url, base), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    return res.status;
  };
  const page = async (url: string) => (await fetch(new URL(url, base))).text();
  const signup = (name: string, email: string) => signupThroughBff(base, name, email);
  const inboxEntry = async (owner: { token: string }, questionId: string) =>
    ((await call(base, 'GET', '/api/questions?role=receiver', undefined, owner.token)).body as { _id: string; tip: number; tipStatus: string }[]).find(
      (q) => q._id === questionId,
    );
  const poll = (fn: () => Promise<unknown>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

  it('connect → onboard → tipping on → $5 guest checkout → Pay → held → answer → captured 500/50/450; withdrawn, expired, abandoned and deleted-owner tips released', async () => {
    const owner = await signup('Olga Owner', 'olga.owner@example.com');
    const asker = await signup('Sam Asker', 'sam.asker@example.com');

    // Before onboarding, tipping cannot be switched on.
    const early = await call(base, 'PUT', '/api/payments/tipOptions', { tipOptions: [{ value: '$0' }, { value: '$5' }], tippingEnabled: true }, owner.token);
    expect(early.status).toBe(422);

    const connected = await call(base, 'POST', '/api/payments/connect', { country: 'CA' }, owner.token);
    expect(connected.status).toBe(200);
    expect(await page(connected.body.url)).toContain('Complete onboarding');
    expect(await press(`${connected.body.url}/complete`)).toBe(303);
    await poll(async () => (await call(base, 'GET', '/api/payments/account-status', undefined, owner.token)).body.stripeAccountStatus).toBe('completed');

    const saved = await call(
      base,
      'PUT',
      '/api/payments/tipOptions',
      { tipOptions: [{ value: '$0' }, { value: '$5' }, { value: '$25' }, { value: 'Custom' }], tippingEnabled: true },
      owner.token,
    );
    expect(saved.status).toBe(200);
    expect((await call(base, 'GET', `/api/payments/tipOptions?userId=${owner.id}`)).body.tippingEnabled).toBe(true);

    const guestCheckout = (question: string) =>
      call(base, 'POST', '/api/checkout/create-checkout-session', {
        donationAmount: 5,
        userId: 'guest',
        questionData: { question, toUserId: owner.id, toUsername: owner.username, askedName: 'Gil Guest', askedEmail: 'gil@example.com', agreedToTerms: true, tip: 5 },
      });

    // 1. Paid and answered: captured, 10 % to the platform.
    const first = await guestCheckout('Worth a fiver?');
    expect(first.status).toBe(200);
    expect(first.body.sessionId).toEqual(expect.any(String));
    const checkoutPage = await page(first.body.url);
    expect(checkoutPage).toContain('TEST MODE');
    expect(checkoutPage).toContain('$5.00');
    expect(await press(`${first.body.url}/pay`)).toBe(303);
    await poll(async () => (await inboxEntry(owner, first.body.questionId))?.tipStatus).toBe('held');
    expect(await inboxEntry(owner, first.body.questionId)).toMatchObject({ tip: 5, tipStatus: 'held' });
    expect((await call(base, 'PUT', `/api/questions/${first.body.questionId}/answer`, { answer: 'Yes, it is.' }, owner.token)).status).toBe(200);
    const finalized = await call(base, 'POST', `/api/payments/process/${first.body.questionId}/finalize-payment`, undefined, owner.token);
    expect(finalized.status).toBe(200);
    // Finalizing twice gives the same outcome.
    expect((await call(base, 'POST', `/api/payments/process/${first.body.questionId}/finalize-payment`, undefined, owner.token)).body.status).toBe(finalized.body.status);
    await poll(async () => (await inboxEntry(owner, first.body.questionId))?.tipStatus).toBe('captured');
    const earnings = await call(base, 'GET', '/api/payments/earnings', undefined, owner.token);
    expect(earnings.body.entries).toEqual([expect.objectContaining({ questionId: first.body.questionId, amount: 500, applicationFee: 50, net: 450 })]);
    // Another signed-in user cannot see the owner's money or settle their tips.
    expect((await call(base, 'POST', `/api/payments/process/${first.body.questionId}/finalize-payment`, undefined, asker.token)).status).toBeGreaterThanOrEqual(403);

    // 2. Withdrawn by a signed-in asker while pending: released.
    const second = await call(
      base,
      'POST',
      '/api/checkout/create-checkout-session',
      { donationAmount: 5, userId: asker.id, questionData: { question: 'Withdraw me?', toUserId: owner.id, toUsername: owner.username } },
      asker.token,
    );
    expect(second.status).toBe(200);
    await press(`${second.body.url}/pay`);
    await poll(async () => (await inboxEntry(owner, second.body.questionId))?.tipStatus).toBe('held');
    expect((await call(base, 'DELETE', `/api/questions/${second.body.questionId}`, undefined, asker.token)).status).toBe(200);
    await poll(async () => (await call(base, 'GET', `/api/questions/${second.body.questionId}`, undefined, asker.token)).body.tipStatus).toBe('released');

    // 3. Unanswered for 5 days: released by the scheduler.
    const third = await guestCheckout('Will you forget me?');
    await press(`${third.body.url}/pay`);
    await poll(async () => (await inboxEntry(owner, third.body.questionId))?.tipStatus).toBe('held');
    offsetMs += ANSWER_WINDOW_MS + 1_000;
    await poll(async () => (await inboxEntry(owner, third.body.questionId))?.tipStatus).toBe('released');

    // 4. Abandoned on the test checkout page: no question.
    const fourth = await guestCheckout('Never mind?');
    expect(await press(`${fourth.body.url}/cancel`)).toBe(303);
    await new Promise((r) => setTimeout(r, 300));
    expect(await inboxEntry(owner, fourth.body.questionId)).toBeUndefined();

    // 5. The owner deletes their account with a tip still held: it is released.
    const fifth = await guestCheckout('Still there?');
    await press(`${fifth.body.url}/pay`);
    await poll(async () => (await inboxEntry(owner, fifth.body.questionId))?.tipStatus).toBe('held');
    expect((await call(base, 'DELETE', `/api/users/profile/${owner.id}`, undefined, owner.token)).status).toBe(200);
    const { tips } = product.services.payments.parts;
    await poll(async () => (await tips.byQuestion(fifth.body.questionId))?.status).toBe('released');
    // And nobody can check out with a deleted owner any more.
    expect((await guestCheckout('Anyone home?')).status).toBeGreaterThanOrEqual(400);
  }, 120_000);
});
