import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_WINDOW_MS, type UserSnapshot } from '@ques/contracts';
import {
  connectEmbedded,
  createLogger,
  fileMailer,
  generateJwtKeys,
  InProcessEventBus,
  openEmbeddedPostgres,
  runService,
  type EmbeddedPostgres,
  type RunningService,
} from '@ques/kit';
import { createTestTokenSigner, eventually, integrationMessage } from '@ques/kit/testing';
import { HttpQuestionsClient, loadPaymentsConfig, paymentsService, type PaymentsConfig, type PaymentsDB, type PaymentsOverrides, type PaymentsParts } from '@ques/payments';
import { loadQuestionsConfig, questionsService, type QuestionsConfig, type QuestionsDB, type QuestionsParts } from '@ques/questions';

const log = createLogger('tipped-embedded', process.env.TEST_LOG_LEVEL ?? 'silent');

const ORIGIN = 'http://localhost:3000';

/**
 * The embedded default's configuration — one PGlite session shared by every service, the in-process bus, the local
 * test-mode provider — with questions and payments side by side, walked with plain HTTP calls as a new user would.
 * It proves the single-session database never deadlocks on the payment paths (provider state, webhooks, jobs).
 */
describe('payments + questions in the embedded configuration (PGlite, in-process bus, test mode)', () => {
  let pg: EmbeddedPostgres;
  let bus: InProcessEventBus;
  let questions: RunningService<QuestionsDB, QuestionsConfig, QuestionsParts>;
  let payments: RunningService<PaymentsDB, PaymentsConfig, PaymentsParts, PaymentsOverrides>;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  let token: (user: { id: string; username: string }) => string;
  let closeSigner: () => Promise<void>;

  const call = async (
    runtime: { app: RunningService['app'] },
    method: string,
    url: string,
    body?: unknown,
    tok?: string,
  ) => {
    const res = await runtime.app.inject({
      method: method as never,
      url: url.replace(ORIGIN, ''),
      payload: body as never,
      headers: tok ? { authorization: `Bearer ${tok}` } : {},
    });
    return {
      status: res.statusCode,
      body: res.body && res.headers['content-type']?.toString().includes('json') ? res.json() : res.body,
      location: res.headers.location,
    };
  };
  const press = (url: string) =>
    payments.app.inject({
      method: 'POST',
      url: url.replace(ORIGIN, ''),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
  const register = async (username: string, name: string) => {
    const userId = randomUUID();
    const snap: UserSnapshot = {
      userId,
      username,
      name,
      email: `${username}@example.com`,
      bio: '',
      avatarUrl: '/images/user-image.png',
      brandColorMain: '#1A140F',
      brandColorLight: '#FAF6F2',
      archiveProfile: false,
    };
    await bus.publish([
      integrationMessage({ context: 'identity', type: 'UserRegistered', data: snap, streamId: `user-${userId}`, occurredAt: clock() }),
    ]);
    return { id: userId, username, token: token({ id: userId, username }) };
  };
  const tipStatus = async (owner: { token: string }, questionId: string) =>
    (await call(questions, 'GET', `/api/questions/${questionId}`, undefined, owner.token)).body?.tipStatus;

  beforeAll(async () => {
    pg = await openEmbeddedPostgres();
    bus = new InProcessEventBus({ log });
    const keys = generateJwtKeys();
    questions = await runService(questionsService, {
      config: loadQuestionsConfig({ JWT_PUBLIC_KEY: keys.publicKey, PUBLIC_ORIGIN: ORIGIN }),
      database: connectEmbedded<QuestionsDB>(pg, 'questions'),
      bus,
      log,
      clock,
      mailer: fileMailer(join(mkdtempSync(join(tmpdir(), 'ques-embedded-')), 'mail'), 'Ques <no-reply@ques.test>', log),
      port: 0,
      pollIntervalMs: 50,
    });
    payments = await runService(paymentsService, {
      config: loadPaymentsConfig({ JWT_PUBLIC_KEY: keys.publicKey, PUBLIC_ORIGIN: ORIGIN }),
      database: connectEmbedded<PaymentsDB>(pg, 'payments'),
      bus,
      log,
      clock,
      port: 0,
      pollIntervalMs: 50,
      overrides: { provider: { kind: 'test', pagesBaseUrl: ORIGIN }, questions: new HttpQuestionsClient({ baseUrl: questions.url }) },
    });
    const signer = await createTestTokenSigner(keys);
    token = (user) => signer.sign(user);
    closeSigner = () => signer.close();
  }, 60_000);

  afterAll(async () => {
    await payments?.stop();
    await questions?.stop();
    await closeSigner?.();
    await bus?.close();
    await pg?.pglite.close();
  });

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
