import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ANSWER_WINDOW_MS,
  API_CALLS,
  ASK_MESSAGES,
  BROWSER_CALLS,
  PAYMENT_MESSAGES,
  exportsInternalCalls,
  onboardingInternalCalls,
} from '@ques/contracts';
import { rebuildProjections, registeredRoutes } from '@ques/kit';
import {
  eventually,
  infraGate,
  natsTestUrl,
  postgresServerUrl,
  routesWithoutSchemas,
} from '@ques/kit/testing';
import { TestModeProvider } from './providers/test-mode/test-mode-provider.js';
import {
  INTERNAL_HEADERS,
  guestQuestion,
  PUBLIC_ORIGIN,
  startHarness,
  tipEventTypes,
  tippingOwner,
  type Harness,
  type User,
} from './test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

/**
 * The payments service in its local test mode (the embedded default), two instances on real Postgres and NATS
 * JetStream, with questions' side of their contract played by a stand-in (the hand-over call, questions' events, what
 * questions would show): the first done-when, at service level. Both real services together: the launcher's
 * suites.
 */
describe.runIf(run)('payments in test mode, with questions, on real Postgres + NATS', () => {
  let h: Harness;
  let ada: User; // owner, tipping on
  let bob: User; // a signed-in asker
  let eve: User; // a stranger

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const page = async (url: string) => {
    const res = await h.a.app.inject({ method: 'GET', url: url.replace(PUBLIC_ORIGIN, '') });
    return { status: res.statusCode, html: res.body, type: res.headers['content-type'] };
  };
  const press = async (path: string) => {
    const res = await h.a.app.inject({
      method: 'POST',
      url: path.replace(PUBLIC_ORIGIN, ''),
      headers: form,
      payload: '',
    });
    return { status: res.statusCode, location: res.headers.location };
  };
  const tipOf = (questionId: string) => h.a.parts.tips.byQuestion(questionId);
  /** What questions shows for the tip (from payments' events). */
  const shownTip = (questionId: string) => h.questions.tipStatus(questionId);
  const checkout = (to: User, amount: number, over: Record<string, unknown> = {}, token?: string) =>
    h.api(
      'POST',
      '/api/checkout/create-checkout-session',
      {
        donationAmount: amount,
        userId: 'guest',
        questionData: guestQuestion(to, `Tipped ${randomUUID().slice(0, 6)}?`),
        ...over,
      },
      token,
    );
  /** Checkout + Pay on the test page → the question is pending with the tip held. */
  const paidTip = async (to: User, amount: number, asker?: User) => {
    const body = asker
      ? {
          donationAmount: amount,
          userId: asker.id,
          questionData: { question: `From ${asker.username}?`, toUserId: to.id },
        }
      : { donationAmount: amount, userId: 'guest', questionData: guestQuestion(to, 'Guest tipped?') };
    const created = await h.api('POST', '/api/checkout/create-checkout-session', body, asker?.token);
    expect(created.status).toBe(200);
    expect((await press(`${created.body.url}/pay`)).status).toBe(303);
    await eventually(async () => (await tipOf(created.body.questionId))?.status === 'authorized');
    await eventually(async () => shownTip(created.body.questionId) === 'held');
    return created.body.questionId as string;
  };

  beforeAll(async () => {
    h = await startHarness(natsUrl!, { provider: 'test' });
    bob = await h.registerUser({ username: 'bob', name: 'Bob Asker' });
    eve = await h.registerUser({ username: 'eve', name: 'Eve Stranger' });
  });
  afterAll(async () => h?.close());

  it('onboards an owner on the test pages and only then lets them turn tipping on (spec §4, §8)', async () => {
    ada = await h.registerUser({ username: 'ada', name: 'Ada Lovelace' });
    const before = await h.api('GET', `/api/payments/account-status?userId=${ada.id}`, undefined, ada.token);
    expect(before.body).toEqual({
      userId: ada.id,
      stripeAccountId: null,
      stripeAccountStatus: null,
      country: null,
      chargesEnabled: false,
      payoutsEnabled: false,
      detailsSubmitted: false,
    });
    const noAccount = await h.api(
      'PUT',
      '/api/payments/tipOptions',
      { userId: ada.id, tipOptions: [{ value: '$0' }, { value: '$5' }], tippingEnabled: true },
      ada.token,
    );
    expect([noAccount.status, noAccount.body.message]).toEqual([422, PAYMENT_MESSAGES.setUpFirst]);
    // The switch alone is refused the same way before payouts are connected (issue 28).
    const switchOnly = await h.api('PUT', '/api/payments/tipOptions', { tippingEnabled: true }, ada.token);
    expect([switchOnly.status, switchOnly.body.message]).toEqual([422, PAYMENT_MESSAGES.setUpFirst]);
    expect((await h.api('GET', `/internal/onboarding/payments/${ada.id}`, undefined, undefined, 'a', INTERNAL_HEADERS)).body).toEqual({ payoutsConnected: false, tippingEnabled: false });

    // Issue 28: the country cannot be changed later, so it is never assumed: the owner sends it.
    const noCountry = await h.api('POST', '/api/payments/connect', { userId: ada.id }, ada.token);
    expect([noCountry.status, noCountry.body.message]).toEqual([400, PAYMENT_MESSAGES.chooseCountry]);
    expect((await h.api('GET', '/api/payments/account-status', undefined, ada.token)).body.stripeAccountId).toBeNull();
    const connected = await h.api('POST', '/api/payments/connect', { userId: ada.id, country: 'de' }, ada.token);
    expect(connected.status).toBe(200);
    const linked = await h.database.db.selectFrom('payout_accounts').select('country').where('user_id', '=', ada.id).executeTakeFirstOrThrow();
    expect(linked.country).toBe('DE');
    expect(connected.body.url).toBe(`${PUBLIC_ORIGIN}/pay/test/onboarding/${connected.body.stripeAccountId}`);
    // Connecting again reuses the account.
    expect(
      (await h.api('POST', '/api/payments/connect', { country: 'US' }, ada.token)).body.stripeAccountId,
    ).toBe(connected.body.stripeAccountId);
    const pending = await h.api('GET', `/api/payments/account-status?userId=${ada.id}`, undefined, ada.token);
    expect(pending.body).toMatchObject({
      stripeAccountId: connected.body.stripeAccountId,
      stripeAccountStatus: 'pending',
      country: 'DE',
    });
    const notYet = await h.api(
      'PUT',
      '/api/payments/tipOptions',
      { tipOptions: ['$0', '$5'], tippingEnabled: true },
      ada.token,
    );
    expect([notYet.status, notYet.body.message]).toEqual([422, PAYMENT_MESSAGES.completeFirst]);

    const onboarding = await page(connected.body.url);
    expect(onboarding.status).toBe(200);
    expect(onboarding.type).toContain('text/html');
    expect(onboarding.html).toContain('TEST MODE');
    expect(onboarding.html).toContain('Complete onboarding');
    const done = await press(`${connected.body.url}/complete`);
    expect(done).toEqual({ status: 303, location: `${PUBLIC_ORIGIN}/admin/payment?stripe=return` });
    await eventually(
      async () =>
        (await h.api('GET', '/api/payments/account-status', undefined, ada.token)).body
          .stripeAccountStatus === 'completed',
    );

    // Issue 28: the switch saves on its own, in one call, keeping the saved options.
    const switched = await h.api('PUT', '/api/payments/tipOptions', { tippingEnabled: true }, ada.token);
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ tippingEnabled: true, tipOptions: [{ value: '$0' }, { value: '$5' }, { value: '$25' }, { value: '$50' }, { value: 'Custom' }] });
    expect((await h.api('GET', `/api/payments/tipOptions?userId=${ada.id}`)).body.tippingEnabled).toBe(true);
    expect((await h.api('GET', `/internal/onboarding/payments/${ada.id}`, undefined, undefined, 'a', INTERNAL_HEADERS)).body).toEqual({ payoutsConnected: true, tippingEnabled: true });

    const saved = await h.api(
      'PUT',
      '/api/payments/tipOptions',
      {
        userId: ada.id,
        tipOptions: [
          { id: 'x', value: '$0', removable: true },
          { value: '$5' },
          { value: '$25' },
          { value: 'Custom' },
        ],
        tippingEnabled: true,
      },
      ada.token,
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      message: PAYMENT_MESSAGES.saved,
      tippingEnabled: true,
      tipOptions: [
        { id: 'tip-0', value: '$0', removable: false },
        { id: 'tip-5', value: '$5', removable: true },
        { id: 'tip-25', value: '$25', removable: true },
        { id: 'tip-custom', value: 'Custom', removable: true },
      ],
    });
    const pub = await h.api('GET', `/api/payments/tipOptions?userId=${ada.id}`);
    expect(pub.body).toEqual({ tipOptions: saved.body.tipOptions, tippingEnabled: true });
    // Someone who never saved gets the spec defaults with tipping off.
    expect((await h.api('GET', `/api/payments/tipOptions?userId=${eve.id}`)).body).toEqual({
      tippingEnabled: false,
      tipOptions: [
        { id: 'tip-0', value: '$0', removable: false },
        { id: 'tip-5', value: '$5', removable: true },
        { id: 'tip-25', value: '$25', removable: true },
        { id: 'tip-50', value: '$50', removable: true },
        { id: 'tip-custom', value: 'Custom', removable: true },
      ],
    });
  });

  it('walks a $5 tip: checkout page → Pay → question held in the inbox → answer → captured, ledger 500/50/450', async () => {
    const created = await checkout(ada, 5);
    expect(created.status).toBe(200);
    const { sessionId, url, questionId, paymentIntentId } = created.body;
    expect(sessionId).toMatch(/^cs_local_/);
    expect(paymentIntentId).toBeNull();
    expect(url).toBe(`${PUBLIC_ORIGIN}/pay/test/checkout/${sessionId}`);
    expect(created.body.message).toBe('Checkout session created');
    expect(await tipEventTypes(h, questionId)).toEqual(['CheckoutStarted']);

    const shown = await page(url);
    expect(shown.status).toBe(200);
    for (const text of [
      'TEST MODE',
      'no real money',
      '$5.00',
      'Ada Lovelace',
      '>Pay $5.00<',
      '>Cancel<',
      '$0.50',
      // The fee breakdown before paying (issue 14).
      'Ada Lovelace receives $4.50 · Ques fee (10 %) $0.50 · Your card is held, not charged, until Ada Lovelace answers; released automatically after 5 days. One-time tip, never recurring.',
    ])
      expect(shown.html).toContain(text);
    // Handed over to questions, but not a question yet: invisible until the card is authorized.
    expect(h.questions.handedOver.find((c) => c.body.questionId === questionId)?.body).toMatchObject({
      askerUserId: null,
      amountCents: 500,
      currency: 'usd',
      paymentRef: sessionId,
      questionData: { toUserId: ada.id, agreedToTerms: true },
    });
    expect(h.questions.isAsked(questionId)).toBe(false);

    const paid = await press(`${url}/pay`);
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(
      `${PUBLIC_ORIGIN}/ask/ada?checkout=success&questionId=${questionId}&session_id=${sessionId}`,
    );
    await eventually(async () => shownTip(questionId) === 'held');
    expect(h.questions.isAsked(questionId)).toBe(true);
    const tip = await tipOf(questionId);
    expect(tip).toMatchObject({ status: 'authorized', amount: 500, application_fee: 50 });
    expect(
      (await (h.a.parts.provider as TestModeProvider).paymentIntent(tip!.payment_intent_id!))?.status,
    ).toBe('requires_capture');
    // Paying twice changes nothing; the page now says it is authorized.
    expect((await press(`${url}/pay`)).status).toBe(303);
    expect((await page(url)).html).toContain('Payment authorized');

    await h.questions.answer(questionId);
    const finalized = await h.api(
      'POST',
      `/api/payments/process/${questionId}/finalize-payment`,
      undefined,
      ada.token,
    );
    expect([finalized.status, finalized.body]).toEqual([
      200,
      { message: PAYMENT_MESSAGES.captured, questionId, status: 'captured' },
    ]);
    // Repeated: the same outcome, nothing captured twice.
    expect(
      (await h.api('POST', `/api/payments/process/${questionId}/finalize-payment`, undefined, ada.token, 'b'))
        .body,
    ).toEqual(finalized.body);
    await eventually(async () => shownTip(questionId) === 'captured');
    expect(
      (await (h.a.parts.provider as TestModeProvider).paymentIntent(tip!.payment_intent_id!))?.status,
    ).toBe('succeeded');
    expect(await tipEventTypes(h, questionId)).toEqual([
      'CheckoutStarted',
      'TipAuthorized',
      'TipCaptureRequested',
      'TipCaptured',
    ]);

    const earnings = await h.api('GET', '/api/payments/earnings', undefined, ada.token);
    expect(earnings.status).toBe(200);
    expect(earnings.body.entries).toEqual([
      {
        questionId,
        amount: 500,
        applicationFee: 50,
        net: 450,
        currency: 'usd',
        capturedAt: expect.any(String),
      },
    ]);
    expect(earnings.body.totals).toEqual({
      count: 1,
      amount: 500,
      applicationFee: 50,
      net: 450,
      currency: 'usd',
    });
  });

  it('releases a held tip when the asker withdraws, when the 5 days pass, and when a checkout is abandoned', async () => {
    // Withdrawn by a signed-in asker.
    const withdrawn = await paidTip(ada, 25, bob);
    await h.questions.withdraw(withdrawn);
    await eventually(async () => (await tipOf(withdrawn))?.status === 'released');
    expect(await tipOf(withdrawn)).toMatchObject({ release_reason: 'withdrawn' });
    await eventually(async () => shownTip(withdrawn) === 'released');
    expect(
      (
        await (h.a.parts.provider as TestModeProvider).paymentIntent(
          (await tipOf(withdrawn))!.payment_intent_id!,
        )
      )?.status,
    ).toBe('canceled');

    // Unanswered for 5 days: questions expires it, payments releases it.
    const expired = await paidTip(ada, 5);
    h.advance(ANSWER_WINDOW_MS + 1_000);
    expect(await h.questions.expire(expired)).toBe(true);
    await eventually(async () => (await tipOf(expired))?.status === 'released', 15_000);
    expect(await tipOf(expired)).toMatchObject({ release_reason: 'expired' });
    await eventually(async () => shownTip(expired) === 'released');
    // Answering afterwards is free: nothing is captured.
    await h.questions.answer(expired);
    const late = await h.api(
      'POST',
      `/api/payments/process/${expired}/finalize-payment`,
      undefined,
      ada.token,
    );
    expect([late.status, late.body.message]).toEqual([409, PAYMENT_MESSAGES.released]);

    // Abandoned on the test page: no question, the checkout is released.
    const abandoned = await checkout(ada, 25);
    const cancelled = await press(`${abandoned.body.url}/cancel`);
    expect(cancelled).toEqual({
      status: 303,
      location: `${PUBLIC_ORIGIN}/ask/ada?checkout=cancelled&questionId=${abandoned.body.questionId}`,
    });
    await eventually(async () => (await tipOf(abandoned.body.questionId))?.status === 'released');
    expect(await tipOf(abandoned.body.questionId)).toMatchObject({
      release_reason: 'abandoned',
      payment_intent_id: null,
    });
    expect((await page(abandoned.body.url)).html).toContain('This checkout is closed');
    expect((await press(`${abandoned.body.url}/pay`)).location).toContain('checkout=cancelled');
    // Questions never heard it was authorized, and hears the checkout ended unpaid: the question goes.
    await eventually(async () => h.questions.isExpired(abandoned.body.questionId));
    expect(h.questions.isAsked(abandoned.body.questionId)).toBe(false);
    expect(h.questions.authorizations(abandoned.body.questionId)).toBe(0);
    // The provider expired it: recorded as observed, with nothing left to ask the provider.
    expect(await tipEventTypes(h, abandoned.body.questionId)).toEqual([
      'CheckoutStarted',
      'TipRefunded',
      'CheckoutExpired',
    ]);
  });

  it('counts captures and releases in its metrics (ques_payments_*), the same on every instance', async () => {
    const value = (text: string, name: string) =>
      Number(
        text
          .split('\n')
          .find((l) => l.startsWith(`${name}{`))
          ?.split(' ')
          .at(-1),
      );
    for (const instance of [h.a, h.b]) {
      const text = await instance.metrics.registry.metrics();
      expect(value(text, 'ques_payments_captures_total')).toBeGreaterThanOrEqual(1);
      expect(value(text, 'ques_payments_releases_total')).toBeGreaterThanOrEqual(3);
      expect(text).toContain('ques_payments_tips{status="released",service="payments"}');
    }
  });

  it('releases a checkout nobody finished once it expires (the safety net when no event comes)', async () => {
    const left = await checkout(ada, 5);
    expect((await tipOf(left.body.questionId))?.status).toBe('started');
    h.advance(34 * 60_000);
    await eventually(async () => (await tipOf(left.body.questionId))?.status === 'released', 15_000);
    expect(await tipOf(left.body.questionId)).toMatchObject({ release_reason: 'abandoned' });
    expect((await press(`${left.body.url}/pay`)).location).toContain('checkout=cancelled');
    // The provider's own expiry lets go of the question too.
    await eventually(async () => h.questions.isExpired(left.body.questionId));
  });

  it('cancel-payment releases a held tip for the recipient or the asker, idempotently; never a captured one', async () => {
    const byRecipient = await paidTip(ada, 5);
    const first = await h.api(
      'POST',
      `/api/payments/process/${byRecipient}/cancel-payment`,
      undefined,
      ada.token,
    );
    expect([first.status, first.body]).toEqual([
      200,
      { message: PAYMENT_MESSAGES.cancelled, questionId: byRecipient, status: 'released' },
    ]);
    expect(
      (await h.api('POST', `/api/payments/process/${byRecipient}/cancel-payment`, undefined, ada.token, 'b'))
        .body,
    ).toEqual(first.body);
    await eventually(async () => shownTip(byRecipient) === 'released');
    // The recipient then deletes the question: nothing left to release.
    await h.questions.deleteByReceiver(byRecipient);
    const finalize = await h.api(
      'POST',
      `/api/payments/process/${byRecipient}/finalize-payment`,
      undefined,
      ada.token,
    );
    expect([finalize.status, finalize.body.message]).toEqual([409, PAYMENT_MESSAGES.released]);

    const byAsker = await paidTip(ada, 5, bob);
    expect(
      (await h.api('POST', `/api/payments/process/${byAsker}/cancel-payment`, undefined, bob.token)).body
        .status,
    ).toBe('released');
    expect(await tipOf(byAsker)).toMatchObject({ status: 'released', release_reason: 'cancelled' });

    const answered = await paidTip(ada, 5);
    await h.questions.answer(answered);
    await eventually(async () => (await tipOf(answered))?.status === 'captured');
    const tooLate = await h.api(
      'POST',
      `/api/payments/process/${answered}/cancel-payment`,
      undefined,
      ada.token,
    );
    expect([tooLate.status, tooLate.body.message]).toEqual([409, PAYMENT_MESSAGES.alreadyCaptured]);
  });

  it('never captures a tip whose question was not answered, even when the recipient asks', async () => {
    const unanswered = await paidTip(ada, 5);
    const started = Date.now();
    const res = await h.api(
      'POST',
      `/api/payments/process/${unanswered}/finalize-payment`,
      undefined,
      ada.token,
    );
    expect([res.status, res.body.message]).toEqual([409, PAYMENT_MESSAGES.needsAnswer]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500); // it waited for a late answer first
    expect((await tipOf(unanswered))?.status).toBe('authorized');
  });

  it('answers checkout mistakes in the spec’s words, before anything is charged', async () => {
    const archive = await h.registerUser({ username: 'archive', name: 'Archive', archiveProfile: true });
    const noEmail = await h.registerUser({ username: 'noemail', email: '' });
    const guest = guestQuestion(ada, 'Valid?');
    const cases: [Record<string, unknown>, string | undefined, number, string][] = [
      [
        { donationAmount: 5, questionData: { ...guest, question: '  ' } },
        undefined,
        400,
        ASK_MESSAGES.titleRequired,
      ],
      [
        { donationAmount: 5, questionData: { ...guest, agreedToTerms: undefined } },
        undefined,
        400,
        ASK_MESSAGES.mustAgree,
      ],
      [
        { donationAmount: 5, questionData: { ...guest, askedEmail: '', yourEmail: '' } },
        undefined,
        400,
        ASK_MESSAGES.nameAndEmail,
      ],
      [
        { donationAmount: 5, questionData: { ...guest, toUserId: undefined } },
        undefined,
        400,
        ASK_MESSAGES.recipientMissing,
      ],
      [
        { donationAmount: 5, questionData: { ...guest, toUserId: randomUUID() } },
        undefined,
        400,
        ASK_MESSAGES.recipientMissing,
      ],
      [
        { donationAmount: 5, questionData: { ...guest, toUserId: noEmail.id } },
        undefined,
        400,
        ASK_MESSAGES.recipientEmailMissing,
      ],
      [
        { donationAmount: 5, questionData: { ...guest, toUserId: archive.id } },
        undefined,
        422,
        ASK_MESSAGES.archiveProfile,
      ],
      [
        { donationAmount: 5, questionData: { ...guest, toUserId: bob.id } },
        undefined,
        422,
        PAYMENT_MESSAGES.notAcceptingTips,
      ],
      [{ donationAmount: 0, questionData: guest }, undefined, 400, ASK_MESSAGES.selectTip],
      [{ donationAmount: null, questionData: guest }, undefined, 400, ASK_MESSAGES.selectTip],
      [{ donationAmount: 0.5, questionData: guest }, undefined, 400, ASK_MESSAGES.penny],
      [{ donationAmount: 5.5, questionData: guest }, undefined, 400, PAYMENT_MESSAGES.wholeDollars],
      [{ donationAmount: 10_001, questionData: guest }, undefined, 400, ASK_MESSAGES.tipTooLarge],
      [{ donationAmount: 5 }, undefined, 400, PAYMENT_MESSAGES.questionDataMissing],
      [
        { donationAmount: 5, questionData: { question: 'Mine?', toUserId: ada.id } },
        ada.token,
        422,
        'You cannot tip your own profile.',
      ],
      // The terms box may also come next to the question (the spec's checkout payload has no place for it).
      [
        { donationAmount: 5, questionData: { ...guest, agreedToTerms: undefined }, agreedToTerms: true },
        undefined,
        200,
        '',
      ],
      // Any whole amount when the owner offers Custom; signed in: no terms, name or e-mail.
      [
        { donationAmount: 7, userId: bob.id, questionData: { question: 'Seven?', toUserId: ada.id } },
        bob.token,
        200,
        '',
      ],
    ];
    for (const [body, token, status, message] of cases) {
      const res = await h.api('POST', '/api/checkout/create-checkout-session', body, token);
      expect({ body, status: res.status, message: status === 200 ? '' : res.body.message }).toEqual({
        body,
        status,
        message,
      });
    }
    // A preset the owner does not offer, when they offer no Custom.
    const carl = await tippingOwner(h, 'carl', ['$0', '$5', '$25']);
    const notOffered = await h.api('POST', '/api/checkout/create-checkout-session', {
      donationAmount: 7,
      questionData: guestQuestion(carl, 'Seven?'),
    });
    expect([notOffered.status, notOffered.body.message]).toEqual([400, PAYMENT_MESSAGES.notAnOption]);
    expect(
      (
        await h.api('POST', '/api/checkout/create-checkout-session', {
          donationAmount: '25',
          questionData: guestQuestion(carl, 'OK?'),
        })
      ).status,
    ).toBe(200);
    // Tip options: the spec's limits.
    const tooMany = await h.api(
      'PUT',
      '/api/payments/tipOptions',
      { tipOptions: ['$0', '$1', '$5', '$10', '$25', '$50'], tippingEnabled: true },
      carl.token,
    );
    expect([tooMany.status, tooMany.body.message]).toEqual([400, PAYMENT_MESSAGES.tooManyOptions]);
    const noZero = await h.api(
      'PUT',
      '/api/payments/tipOptions',
      { tipOptions: ['$5'], tippingEnabled: true },
      carl.token,
    );
    expect([noZero.status, noZero.body.message]).toEqual([400, PAYMENT_MESSAGES.zeroRequired]);
    const odd = await h.api(
      'PUT',
      '/api/payments/tipOptions',
      { tipOptions: ['$0', '$3'], tippingEnabled: true },
      carl.token,
    );
    expect([odd.status, odd.body.message]).toEqual([400, PAYMENT_MESSAGES.invalidOption]);
  });

  it('cross-user matrix: nobody but the owner reads or changes payment settings, or finalizes or cancels another’s tip', async () => {
    const held = await paidTip(ada, 5, bob);
    const strangers = [
      { who: 'eve', token: eve.token },
      { who: 'anonymous', token: undefined },
    ];
    for (const { who, token } of strangers) {
      const expectStatus = token ? 403 : 401;
      const cases: [string, 'GET' | 'POST' | 'PUT', string, unknown][] = [
        ['account-status', 'GET', `/api/payments/account-status?userId=${ada.id}`, undefined],
        [
          'tipOptions',
          'PUT',
          '/api/payments/tipOptions',
          { userId: ada.id, tipOptions: ['$0'], tippingEnabled: false },
        ],
        ['connect', 'POST', '/api/payments/connect', { userId: ada.id, country: 'CA' }],
        ['earnings', 'GET', `/api/payments/earnings?userId=${ada.id}`, undefined],
      ];
      for (const [name, method, url, body] of cases) {
        const res = await h.api(method, url, body, token);
        expect({ who, name, status: res.status }).toEqual({ who, name, status: expectStatus });
        expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
        if (token) expect(res.body.message).toBe(PAYMENT_MESSAGES.onlyOwner);
      }
      for (const action of ['finalize-payment', 'cancel-payment']) {
        const res = await h.api('POST', `/api/payments/process/${held}/${action}`, undefined, token);
        // A stranger cannot even learn the tip exists.
        expect({ who, action, status: res.status, message: res.body.message }).toEqual({
          who,
          action,
          status: token ? 404 : 401,
          message: token ? PAYMENT_MESSAGES.paymentNotFound : 'Not authorized, no token',
        });
      }
    }
    // The asker may cancel but not finalize; nothing changed so far.
    const askerFinalize = await h.api(
      'POST',
      `/api/payments/process/${held}/finalize-payment`,
      undefined,
      bob.token,
    );
    expect([askerFinalize.status, askerFinalize.body.message]).toEqual([
      403,
      PAYMENT_MESSAGES.onlyRecipientFinalizes,
    ]);
    expect((await tipOf(held))?.status).toBe('authorized');
    expect(
      (await h.api('GET', `/api/payments/account-status?userId=${ada.id}`, undefined, ada.token)).body
        .stripeAccountStatus,
    ).toBe('completed');
    expect((await h.api('GET', `/api/payments/tipOptions?userId=${ada.id}`)).body.tippingEnabled).toBe(true);
    expect(
      (await h.api('POST', `/api/payments/process/${randomUUID()}/finalize-payment`, undefined, ada.token))
        .status,
    ).toBe(404);
    expect(
      (await h.api('POST', '/api/payments/process/not-an-id/cancel-payment', undefined, ada.token)).status,
    ).toBe(404);
  });

  it('releases the held tips of an owner who deletes their account, and stops taking tips for them', async () => {
    const dora = await tippingOwner(h, 'dora');
    const held = await paidTip(dora, 5);
    const unpaid = (await checkout(dora, 5)).body.questionId as string;
    await h.publish(
      'identity',
      'UserDeleted',
      { userId: dora.id, deletedAt: h.now().toISOString() },
      `user-${dora.id}`,
      2,
    );
    await eventually(
      async () => (await tipOf(held))?.status === 'released' && (await tipOf(unpaid))?.status === 'released',
    );
    expect(await tipOf(held)).toMatchObject({ release_reason: 'account_deleted' });
    expect(
      (await (h.a.parts.provider as TestModeProvider).paymentIntent((await tipOf(held))!.payment_intent_id!))
        ?.status,
    ).toBe('canceled');
    expect((await h.api('GET', `/api/payments/tipOptions?userId=${dora.id}`)).body.tippingEnabled).toBe(
      false,
    );
    const refused = await checkout(dora, 5);
    expect([refused.status, refused.body.message]).toEqual([400, ASK_MESSAGES.recipientMissing]);
  });

  it("returns a paid checkout to the confirmation page of the status link the asker's browser made, guest or signed in (issue 28)", async () => {
    for (const asker of [null, bob]) {
      const statusToken = randomBytes(32).toString('base64url');
      const questionData = asker
        ? { question: `Signed-in link ${randomUUID().slice(0, 6)}?`, toUserId: ada.id, statusToken }
        : { ...guestQuestion(ada, `Guest link ${randomUUID().slice(0, 6)}?`), statusToken };
      const created = await h.api(
        'POST',
        '/api/checkout/create-checkout-session',
        { donationAmount: 5, userId: asker?.id ?? 'guest', questionData },
        asker?.token,
      );
      expect(created.status).toBe(200);
      const confirmation = `${PUBLIC_ORIGIN}/q/${statusToken}?confirmed=1`;
      // Questions gets the link with the question (it stores it); the provider returns the browser to its page.
      expect(h.questions.handedOver.find((c) => c.body.questionId === created.body.questionId)?.body).toMatchObject({
        askerUserId: asker?.id ?? null,
        questionData: { statusToken },
      });
      const paid = await press(`${created.body.url}/pay`);
      expect(paid).toEqual({ status: 303, location: confirmation });
      // The test-mode page's way back, once paid, goes there too.
      expect((await page(created.body.url)).html).toContain(`href="${confirmation}"`);
      // The hold settles before the next test (the rebuild below compares rows at rest).
      await eventually(async () => (await tipOf(created.body.questionId))?.status === 'authorized');
    }
  });

  it('declares params, query, body and response schemas on every route, all from contracts', () => {
    expect(routesWithoutSchemas(h.a.app)).toEqual([]);
    // Every route payments serves is one of its declared calls (API_CALLS, BROWSER_CALLS, or the internal read of a
    // person's data export or the set-up checklist's facts), and each is served.
    const declared = [...API_CALLS, ...BROWSER_CALLS, ...Object.values(exportsInternalCalls), ...Object.values(onboardingInternalCalls)].filter(
      (c) => c.service === 'payments',
    );
    const served = registeredRoutes(h.a.app)
      .flatMap((r) => [r.method].flat().map((m) => `${m} ${r.url}`))
      .filter((r) => !r.startsWith('HEAD ') && !r.startsWith('OPTIONS ') && !/ \/(health|ready)$/.test(r));
    expect(served.sort()).toEqual(declared.map((c) => `${c.method} ${c.path}`).sort());
  });

  it('rebuilds every read model from the event store into the same rows', async () => {
    const snapshot = async () => {
      const db = h.database.db;
      return {
        tips: await db.selectFrom('tips').selectAll().orderBy('question_id').execute(),
        ledger: await db.selectFrom('ledger').selectAll().orderBy('question_id').execute(),
        accounts: await db.selectFrom('payout_accounts').selectAll().orderBy('user_id').execute(),
        options: await db.selectFrom('tip_options').selectAll().orderBy('user_id').execute(),
      };
    };
    const before = await snapshot();
    expect(before.ledger.length).toBeGreaterThan(0);
    await rebuildProjections(h.a.ctx.store, h.a.ctx.log);
    expect(await snapshot()).toEqual(before);
  });
});
