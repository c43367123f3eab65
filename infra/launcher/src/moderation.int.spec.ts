import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASKING_MESSAGES, type UserSnapshot } from '@ques/contracts';
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
import {
  HttpQuestionsClient,
  loadPaymentsConfig,
  paymentsService,
  type PaymentsConfig,
  type PaymentsDB,
  type PaymentsOverrides,
  type PaymentsParts,
} from '@ques/payments';
import { loadQuestionsConfig, questionsService, type QuestionsConfig, type QuestionsDB, type QuestionsParts } from '@ques/questions';

const log = createLogger('moderation-embedded', process.env.TEST_LOG_LEVEL ?? 'silent');
const ORIGIN = 'http://localhost:3000';
const DEVICE = 'device-0123456789abcdef0123';

/**
 * Issue 16 "Done when", with the real questions and payments services together (embedded configuration, test-mode
 * provider): pause, cap, word filters and a blocked device refuse a tipped checkout BEFORE any provider call — a
 * refused ask leaves no question, no checkout session and no held card.
 */
describe('refusals before any hold: questions screens, payments asks first (embedded, test mode)', () => {
  let pg: EmbeddedPostgres;
  let bus: InProcessEventBus;
  let questions: RunningService<QuestionsDB, QuestionsConfig, QuestionsParts>;
  let payments: RunningService<PaymentsDB, PaymentsConfig, PaymentsParts, PaymentsOverrides>;
  let token: (user: { id: string; username: string }) => string;
  let closeSigner: () => Promise<void>;
  let owner: { id: string; username: string; token: string };

  const call = async (
    runtime: { app: RunningService['app'] },
    method: string,
    url: string,
    body?: unknown,
    opts: { token?: string; device?: string; ip?: string } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.device) headers['x-ques-device'] = opts.device;
    const res = await runtime.app.inject({
      method: method as never,
      url: url.replace(ORIGIN, ''),
      payload: body as never,
      headers,
      remoteAddress: opts.ip,
    });
    return {
      status: res.statusCode,
      body: res.body && res.headers['content-type']?.toString().includes('json') ? res.json() : res.body,
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
      integrationMessage({ context: 'identity', type: 'UserRegistered', data: snap, streamId: `user-${userId}`, occurredAt: new Date() }),
    ]);
    await eventually(async () => !!(await questions.parts.recipients.byId(userId)));
    return { id: userId, username, token: token({ id: userId, username }) };
  };
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
    pg = await openEmbeddedPostgres();
    bus = new InProcessEventBus({ log });
    const keys = generateJwtKeys();
    questions = await runService(questionsService, {
      config: loadQuestionsConfig({ JWT_PUBLIC_KEY: keys.publicKey, PUBLIC_ORIGIN: ORIGIN }),
      database: connectEmbedded<QuestionsDB>(pg, 'questions'),
      bus,
      log,
      mailer: fileMailer(join(mkdtempSync(join(tmpdir(), 'ques-moderation-')), 'mail'), 'Ques <no-reply@ques.test>', log),
      port: 0,
      pollIntervalMs: 50,
    });
    payments = await runService(paymentsService, {
      config: loadPaymentsConfig({ JWT_PUBLIC_KEY: keys.publicKey, PUBLIC_ORIGIN: ORIGIN }),
      database: connectEmbedded<PaymentsDB>(pg, 'payments'),
      bus,
      log,
      port: 0,
      pollIntervalMs: 50,
      overrides: { provider: { kind: 'test', pagesBaseUrl: ORIGIN }, questions: new HttpQuestionsClient({ baseUrl: questions.url }) },
    });
    const signer = await createTestTokenSigner(keys);
    token = (user) => signer.sign(user);
    closeSigner = () => signer.close();

    owner = await register('mona', 'Mona Owner');
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

  afterAll(async () => {
    await payments?.stop();
    await questions?.stop();
    await closeSigner?.();
    await bus?.close();
    await pg?.pglite.close();
  });

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
