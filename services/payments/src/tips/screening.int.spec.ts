import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASKING_MESSAGES } from '@ques/contracts';
import { AppError } from '@ques/kit';
import { infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import { guestQuestion, startHarness, tippingOwner, type Harness, type User } from '../test/harness.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

/**
 * Issue 16: checkout asks questions to screen the question (pause, cap, filters, blocks) BEFORE the provider is asked
 * for anything — a refused checkout leaves no session, no tip and no hand-over. Questions' side of the call is in
 * services/questions (`asking.int.spec.ts`); here the stand-in answers as questions would.
 */
describe.runIf(run)('checkout is screened before any provider call', () => {
  let h: Harness;
  let ada: User;

  const sessions = async () =>
    Number(
      (
        await h.database.db
          .selectFrom('testmode_sessions')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const tips = async () =>
    Number((await h.database.db.selectFrom('tips').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const checkout = (question: string, device?: string) =>
    h.a.app.inject({
      method: 'POST',
      url: '/api/checkout/create-checkout-session',
      payload: { donationAmount: 5, userId: 'guest', questionData: guestQuestion(ada, question, { detail: 'More.' }) },
      headers: device ? { 'x-ques-device': device } : {},
    });

  beforeAll(async () => {
    h = await startHarness(natsUrl!, { provider: 'test' });
    ada = await tippingOwner(h, 'ada');
  });
  afterAll(async () => h?.close());

  for (const [reason, message] of [
    ['paused', ASKING_MESSAGES.paused('Ada Owner', '2030-01-01T00:00:00.000Z')],
    ['at the cap', ASKING_MESSAGES.atCap('Ada Owner')],
    ['filtered or blocked', ASKING_MESSAGES.refused('Ada Owner')],
  ] as const) {
    it(`refuses a checkout whose question questions refuses (${reason}): no session, no tip, no hand-over`, async () => {
      const [sessionsBefore, tipsBefore, handedBefore] = [await sessions(), await tips(), h.questions.handedOver.length];
      h.questions.refuseScreen = new AppError('UNPROCESSABLE', message);
      const res = await checkout('Refused?', 'device-0123456789abcdef');
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(message);
      expect(await sessions()).toBe(sessionsBefore);
      expect(await tips()).toBe(tipsBefore);
      expect(h.questions.handedOver).toHaveLength(handedBefore);
    });
  }

  it('sends the draft, the asker and the device token to screening, with the id the question will have', async () => {
    const res = await checkout('Screened?', 'device-fedcba9876543210');
    expect(res.statusCode).toBe(200);
    expect(h.questions.screened.at(-1)).toEqual({
      toUserId: ada.id,
      question: 'Screened?',
      detail: 'More.',
      askerUserId: null,
      askedEmail: 'grace@example.com',
      device: 'device-fedcba9876543210',
      // The client's address for the guest limit's network bucket (ADR 0054).
      network: '127.0.0.1',
      questionId: res.json().questionId,
    });
  });
});
