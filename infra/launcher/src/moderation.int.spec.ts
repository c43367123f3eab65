import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASKING_MESSAGES } from '@ques/contracts';
import type { RunningService } from '@ques/kit';
import { eventually } from '@ques/kit/testing';
import type { PaymentsDB } from '@ques/payments';
import type { QuestionsDB } from '@ques/questions';
import { startTippedPair, type TippedPair } from './test/tipped-pair.js';

const DEVICE = 'device-0123456789abcdef0123';

/**
 * Issue 16 "Done when", with the real questions and payments services together (embedded configuration, test-mode
 * provider): pause, cap, word filters and a blocked device refuse a tipped checkout BEFORE any provider call — a
 * refused ask leaves no question, no checkout session and no held card.
 */
describe('refusals before any hold: questions screens, payments asks first (embedded, test mode)', () => {
  let pair: TippedPair;
  let questions: TippedPair['questions'];
  let payments: TippedPair['payments'];
  let owner: { id: string; username: string; token: string };

  const call = (...args: Parameters<TippedPair['call']>) => pair.call(...args);
  const press = (url: string) => pair.press(url);
  const checkout = (title: string, opts: { email?: string; device?: string; ip?: string } = {}) =>
    call(
      payments,
      'POST',
      '/api/checkout/create-checkout-session',
      {
        donationAmount: 5,
        userId: 'guest',
        questionData: {
          question: title,
          toUserId: owner.id,
          askedName: 'Gil Guest',
          askedEmail: opts.email ?? 'gil@example.com',
          agreedToTerms: true,
          tip: 5,
        },
      },
      opts,
    );
  const freeAsk = (title: string, opts: { email?: string; device?: string; ip?: string } = {}) =>
    call(
      questions,
      'POST',
      '/api/questions',
      { question: title, toUserId: owner.id, askedName: 'Gil Guest', askedEmail: opts.email ?? 'gil@example.com', agreedToTerms: true },
      opts,
    );
  const settings = (body: Record<string, unknown>) => call(questions, 'PUT', '/api/asking/settings', body, { token: owner.token });
  const count = async (db: RunningService<PaymentsDB>['ctx']['db'] | RunningService<QuestionsDB>['ctx']['db'], table: string) =>
    Number(
      (
        (await (db as any)
          .selectFrom(table)
          .select((eb: any) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: string }
      ).n,
    );
  /** Checkout sessions at the provider, tips, authorized holds, questions (with their events). */
  const footprint = async () => ({
    sessions: await count(payments.ctx.db, 'testmode_sessions'),
    tips: await count(payments.ctx.db, 'tips'),
    /** Payment intents: a card authorised (held) at the provider. */
    held: await count(payments.ctx.db, 'testmode_payment_intents'),
    questions: await count(questions.ctx.db, 'questions'),
    events: await count(questions.ctx.db, 'events'),
  });

  beforeAll(async () => {
    pair = await startTippedPair({ name: 'moderation' });
    ({ questions, payments } = pair);
    owner = await pair.register('mona', 'Mona Owner');
    const connected = await call(payments, 'POST', '/api/payments/connect', { country: 'CA' }, { token: owner.token });
    expect((await press(`${connected.body.url}/complete`)).statusCode).toBe(303);
    await eventually(
      async () =>
        (await call(payments, 'GET', '/api/payments/account-status', undefined, { token: owner.token })).body
          .stripeAccountStatus === 'completed',
    );
    const tipping = await call(
      payments,
      'PUT',
      '/api/payments/tipOptions',
      { userId: owner.id, tipOptions: [{ value: '$0' }, { value: '$5' }], tippingEnabled: true },
      { token: owner.token },
    );
    expect(tipping.status).toBe(200);
  }, 60_000);

  afterAll(async () => pair?.stop());

  it('pause and cap refuse the checkout before any provider call; nothing is created', async () => {
    const before = await footprint();
    const until = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await settings({ pausedUntil: until });
    const paused = await checkout('While paused?');
    expect([paused.status, paused.body.message]).toEqual([422, ASKING_MESSAGES.paused('Mona Owner', until)]);
    expect(await footprint()).toEqual(before);

    await settings({ pausedUntil: null, pendingCap: 1 });
    expect((await freeAsk('Fills the cap?')).status).toBe(201);
    const filled = await footprint();
    const capped = await checkout('Over the cap?');
    expect([capped.status, capped.body.message]).toEqual([422, ASKING_MESSAGES.atCap('Mona Owner')]);
    expect(await footprint()).toEqual(filled);
    await settings({ pendingCap: null });
  });

  it('a word filter refuses the checkout with the neutral message; nothing is created', async () => {
    await settings({ blockedWords: ['badword'] });
    const before = await footprint();
    for (const title of ['b4dw0rd', 'B.A.D.W.O.R.D', 'bäädword', 'baaadword']) {
      const refused = await checkout(`You ${title}?`);
      expect([refused.status, refused.body.message]).toEqual([422, "This question can't be sent to Mona Owner."]);
    }
    expect(await footprint()).toEqual(before);
    await settings({ blockedWords: [] });
  });

  it('a blocked device is refused again after a new IP and e-mail, at checkout and when asking free; no hold', async () => {
    const asked = await freeAsk('From my browser?', { device: DEVICE, ip: '10.1.1.1', email: 'one@example.com' });
    expect(asked.status).toBe(201);
    expect((await call(questions, 'POST', `/api/questions/${asked.body.id}/block`, undefined, { token: owner.token })).status).toBe(201);

    const before = await footprint();
    const tipped = await checkout('New IP, new e-mail, a tip?', { device: DEVICE, ip: '172.16.5.5', email: 'two@example.org' });
    expect([tipped.status, tipped.body.message]).toEqual([422, "This question can't be sent to Mona Owner."]);
    const free = await freeAsk('And free?', { device: DEVICE, ip: '192.168.9.9', email: 'three@example.net' });
    expect([free.status, free.body.message]).toEqual([422, "This question can't be sent to Mona Owner."]);
    expect(await footprint()).toEqual(before);

    // Someone else's browser checks out as before, and paying holds the card.
    const other = await checkout('Another browser?', { device: 'device-ffffffffffffffffffff', email: 'x@example.com' });
    expect(other.status).toBe(200);
    expect((await press(`${other.body.url}/pay`)).statusCode).toBe(303);
    await eventually(async () => (await questions.parts.questions.byId(other.body.questionId))?.tip_status === 'held');
  });
});
