import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_WINDOW_MS } from '@ques/contracts';
import type { RunningService } from '@ques/kit';
import { eventually } from '@ques/kit/testing';
import { startTippedPair, type TippedPair } from './test/tipped-pair.js';

/**
 * The embedded default's configuration — one PGlite session shared by every service, the in-process bus, the local
 * test-mode provider — with questions and payments side by side, walked with plain HTTP calls as a new user would.
 * It proves the single-session database never deadlocks on the payment paths (provider state, webhooks, jobs).
 */
describe('payments + questions in the embedded configuration (PGlite, in-process bus, test mode)', () => {
  let pair: TippedPair;
  let questions: TippedPair['questions'];
  let payments: TippedPair['payments'];
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  const call = (runtime: { app: RunningService['app'] }, method: string, url: string, body?: unknown, tok?: string) =>
    pair.call(runtime, method, url, body, { token: tok });
  const press = (url: string) => pair.press(url);
  const register = (username: string, name: string) => pair.register(username, name);
  const tipStatus = async (owner: { token: string }, questionId: string) =>
    (await call(questions, 'GET', `/api/questions/${questionId}`, undefined, owner.token)).body?.tipStatus;

  beforeAll(async () => {
    pair = await startTippedPair({ name: 'tipped-embedded', clock });
    ({ questions, payments } = pair);
  }, 60_000);
  afterAll(async () => pair?.stop());

  it('connect → onboard → tipping on → $5 checkout → Pay → held → answer → captured 500/50/450; withdrawn, expired and abandoned ones released', async () => {
    const owner = await register('olga', 'Olga Owner');
    const asker = await register('sam', 'Sam Asker');

    const connected = await call(payments, 'POST', '/api/payments/connect', { country: 'CA' }, owner.token);
    expect(connected.status).toBe(200);
    const onboarding = await call(payments, 'GET', connected.body.url);
    expect(onboarding.body).toContain('Complete onboarding');
    expect((await press(`${connected.body.url}/complete`)).statusCode).toBe(303);
    await eventually(
      async () =>
        (await call(payments, 'GET', '/api/payments/account-status', undefined, owner.token)).body
          .stripeAccountStatus === 'completed',
    );
    expect(
      (
        await call(
          payments,
          'PUT',
          '/api/payments/tipOptions',
          {
            userId: owner.id,
            tipOptions: [{ value: '$0' }, { value: '$5' }, { value: 'Custom' }],
            tippingEnabled: true,
          },
          owner.token,
        )
      ).status,
    ).toBe(200);
    expect(
      (await call(payments, 'GET', `/api/payments/tipOptions?userId=${owner.id}`)).body.tippingEnabled,
    ).toBe(true);

    const guestAsk = (title: string) =>
      call(payments, 'POST', '/api/checkout/create-checkout-session', {
        donationAmount: 5,
        userId: 'guest',
        questionData: {
          question: title,
          toUserId: owner.id,
          askedName: 'Gil Guest',
          askedEmail: 'gil@example.com',
          agreedToTerms: true,
          tip: 5,
        },
      });
    const first = await guestAsk('Worth a fiver?');
    expect(first.status).toBe(200);
    const page = await call(payments, 'GET', first.body.url);
    expect(page.body).toContain('TEST MODE');
    expect(page.body).toContain('$5.00');
    expect(page.body).toContain('Olga Owner');
    expect((await press(`${first.body.url}/pay`)).statusCode).toBe(303);
    await eventually(async () => (await tipStatus(owner, first.body.questionId)) === 'held');
    const inbox = await call(questions, 'GET', '/api/questions?role=receiver', undefined, owner.token);
    expect(inbox.body.find((q: { _id: string }) => q._id === first.body.questionId)).toMatchObject({
      tip: 5,
      tipStatus: 'held',
    });
    expect(
      (
        await call(
          questions,
          'PUT',
          `/api/questions/${first.body.questionId}/answer`,
          { answer: 'Yes.' },
          owner.token,
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await call(
          payments,
          'POST',
          `/api/payments/process/${first.body.questionId}/finalize-payment`,
          undefined,
          owner.token,
        )
      ).body.status,
    ).toBe('captured');
    await eventually(async () => (await tipStatus(owner, first.body.questionId)) === 'captured');
    const earnings = await call(payments, 'GET', '/api/payments/earnings', undefined, owner.token);
    expect(earnings.body.entries).toEqual([
      expect.objectContaining({
        questionId: first.body.questionId,
        amount: 500,
        applicationFee: 50,
        net: 450,
      }),
    ]);

    // Withdrawn by a signed-in asker.
    const second = await call(
      payments,
      'POST',
      '/api/checkout/create-checkout-session',
      { donationAmount: 5, userId: asker.id, questionData: { question: 'Withdraw me?', toUserId: owner.id } },
      asker.token,
    );
    await press(`${second.body.url}/pay`);
    await eventually(async () => (await tipStatus(owner, second.body.questionId)) === 'held');
    expect(
      (await call(questions, 'DELETE', `/api/questions/${second.body.questionId}`, undefined, asker.token))
        .status,
    ).toBe(200);
    await eventually(
      async () => (await payments.parts.tips.byQuestion(second.body.questionId))?.status === 'released',
    );

    // Past 5 days: released by questions' scheduler and payments.
    const third = await guestAsk('Will you forget me?');
    await press(`${third.body.url}/pay`);
    await eventually(async () => (await tipStatus(owner, third.body.questionId)) === 'held');
    offset += ANSWER_WINDOW_MS + 1_000;
    await eventually(async () => (await tipStatus(owner, third.body.questionId)) === 'released', 15_000);
    await eventually(
      async () => (await payments.parts.tips.byQuestion(third.body.questionId))?.status === 'released',
    );
    expect(await payments.parts.tips.byQuestion(third.body.questionId)).toMatchObject({
      status: 'released',
      release_reason: 'expired',
    });

    // Abandoned on the test page: no question.
    const fourth = await guestAsk('Never mind?');
    expect((await press(`${fourth.body.url}/cancel`)).statusCode).toBe(303);
    await eventually(
      async () => (await payments.parts.tips.byQuestion(fourth.body.questionId))?.status === 'released',
    );
    expect(
      (await call(questions, 'GET', `/api/questions/${fourth.body.questionId}`, undefined, owner.token))
        .status,
    ).toBe(404);
    const after = await call(questions, 'GET', '/api/questions?role=receiver', undefined, owner.token);
    expect(after.body.map((q: { _id: string }) => q._id)).not.toContain(fourth.body.questionId);
    // Payments' CheckoutExpired reached questions: the invisible question is gone, not left awaiting payment.
    await eventually(async () =>
      (await questions.ctx.store.readStream(`question-${fourth.body.questionId}`)).some(
        (e) => e.type === 'TippedCheckoutExpired',
      ),
    );
  }, 60_000);
});
