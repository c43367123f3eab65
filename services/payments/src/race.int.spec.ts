import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_WINDOW_MS } from '@ques/contracts';
import { eventually, infraGate, natsTestUrl, postgresServerUrl } from '@ques/kit/testing';
import { startHarness, tipEventTypes, tippingOwner, type Harness, type User } from './test/harness.js';
import type { StripeDouble } from './test/stripe-double.js';

const natsUrl = await natsTestUrl();
const run = infraGate(!!(await postgresServerUrl()) && !!natsUrl, 'Postgres and NATS JetStream');

const ROUNDS = 3;
const TIPS_PER_ROUND = 16;
const jitter = () => new Promise((r) => setTimeout(r, Math.floor(Math.random() * 40)));

/**
 * Answer + finalize, withdrawal, cancel-payment by both parties and the 5-day expiry, all fired at once on the same
 * tipped question, many times, across two payments instances (questions' events come from its stand-in, which lets
 * one of answer / withdrawal / expiry win as questions does). Whoever wins, a tip ends captured once or released —
 * never both, never captured twice.
 */
describe.runIf(run)('capture vs cancel vs expiry races', () => {
  let h: Harness;
  let stripe: StripeDouble;
  let ada: User;
  let bob: User;

  beforeAll(async () => {
    h = await startHarness(natsUrl!, { provider: 'stripe', finalizeWaitMs: 2_000 });
    stripe = h.double!;
    ada = await tippingOwner(h, 'ada');
    bob = await h.registerUser({ username: 'bob', name: 'Bob Asker' });
  });
  afterAll(async () => h?.close());

  it(`never captures and releases the same tip, nor captures twice (${ROUNDS} rounds × ${TIPS_PER_ROUND} questions)`, async () => {
    const outcomes = { captured: 0, released: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      // Held tips on pending questions, asked by Bob (signed in, so he can withdraw).
      const tips = await Promise.all(
        Array.from({ length: TIPS_PER_ROUND }, async (_, i) => {
          const created = await h.api(
            'POST',
            '/api/checkout/create-checkout-session',
            {
              donationAmount: 5,
              userId: bob.id,
              questionData: { question: `Race ${round}.${i}?`, toUserId: ada.id },
            },
            bob.token,
          );
          expect(created.status).toBe(200);
          const { session, paymentIntent } = stripe.completeSession(created.body.sessionId);
          expect(
            (await h.postWebhook(JSON.stringify(stripe.event('checkout.session.completed', session)))).status,
          ).toBe(200);
          return { questionId: created.body.questionId as string, paymentIntentId: paymentIntent.id };
        }),
      );
      await eventually(async () => tips.every((t) => h.questions.tipStatus(t.questionId) === 'held'), 60_000);

      // Everything at once: the deadline passes (questions expires them) while both parties act.
      h.advance(ANSWER_WINDOW_MS + 1_000);
      // Four mixes, so every kind of winner shows up: answer vs expiry; + withdrawal; + the asker's cancel-payment;
      // + everything (both parties' cancel-payment, finalize and settle on both instances).
      await Promise.all(
        tips.flatMap((t, i) => {
          const mix = i % 4;
          const settle = (instance: 'a' | 'b') =>
            (instance === 'a' ? h.a : h.b).parts.settlement.settleNow(t.questionId, {
              correlationId: 'race',
              causationId: null,
              actor: null,
            });
          const actions: Promise<unknown>[] = [
            jitter().then(() => h.questions.expire(t.questionId)),
            (async () => {
              await jitter();
              const answered = await h.questions.answer(t.questionId).then(
                () => true,
                () => false,
              );
              if (answered)
                await h.api(
                  'POST',
                  `/api/payments/process/${t.questionId}/finalize-payment`,
                  undefined,
                  ada.token,
                  'a',
                );
            })(),
          ];
          if (mix >= 1)
            actions.push(
              jitter().then(() => h.questions.withdraw(t.questionId).catch(() => undefined)),
            );
          if (mix >= 2)
            actions.push(
              jitter()
                .then(jitter)
                .then(() =>
                  h.api(
                    'POST',
                    `/api/payments/process/${t.questionId}/cancel-payment`,
                    undefined,
                    bob.token,
                    'b',
                  ),
                ),
            );
          if (mix === 3) {
            actions.push(
              jitter().then(() =>
                h.api(
                  'POST',
                  `/api/payments/process/${t.questionId}/cancel-payment`,
                  undefined,
                  ada.token,
                  'a',
                ),
              ),
              jitter().then(() =>
                h.api(
                  'POST',
                  `/api/payments/process/${t.questionId}/finalize-payment`,
                  undefined,
                  ada.token,
                  'b',
                ),
              ),
              jitter().then(() => settle('a')),
              jitter().then(() => settle('b')),
            );
          }
          return actions;
        }),
      );

      // Let every decision play out: payments settles, questions confirms.
      await eventually(async () => {
        for (const t of tips) {
          const tip = await h.a.parts.tips.byQuestion(t.questionId);
          if (tip?.status !== 'captured' && tip?.status !== 'released') return false;
          if (h.questions.tipStatus(t.questionId) !== tip.status) return false;
        }
        return true;
      }, 60_000);

      for (const t of tips) {
        const events = await tipEventTypes(h, t.questionId);
        const captured = events.filter((e) => e === 'TipCaptured').length;
        const refunded = events.filter((e) => e === 'TipRefunded').length;
        expect({
          questionId: t.questionId,
          captured,
          refunded,
          exactlyOne: captured + refunded === 1,
        }).toEqual({
          questionId: t.questionId,
          captured: captured ? 1 : 0,
          refunded: refunded ? 1 : 0,
          exactlyOne: true,
        });
        expect(
          events.filter((e) => e === 'TipCaptureRequested').length +
            events.filter((e) => e === 'TipReleaseRequested').length,
        ).toBeLessThanOrEqual(1);
        // Stripe's side agrees: one effective capture at most, and the PaymentIntent ended where our record says.
        const pi = stripe.paymentIntents.get(t.paymentIntentId)!;
        expect(pi.status).toBe(captured ? 'succeeded' : 'canceled');
        const effectiveCaptures = stripe
          .requestsTo('POST', new RegExp(`^/v1/payment_intents/${t.paymentIntentId}/capture$`))
          .filter((r) => !r.replayed);
        expect(effectiveCaptures.length).toBeLessThanOrEqual(captured ? 1 : 0);
        outcomes[captured ? 'captured' : 'released'] += 1;
      }
    }
    // Both kinds of winner happened (the mixes make sure), and nothing was both.
    expect(outcomes.captured).toBeGreaterThan(0);
    expect(outcomes.released).toBeGreaterThan(0);
    const ledger = await h.database.db
      .selectFrom('ledger')
      .selectAll()
      .where('recipient_user_id', '=', ada.id)
      .execute();
    expect(ledger).toHaveLength(outcomes.captured);
    for (const row of ledger) expect([row.amount, row.application_fee, row.net]).toEqual([500, 50, 450]);
    console.info(
      `[payments] race outcomes over ${ROUNDS * TIPS_PER_ROUND} questions: ${outcomes.captured} captured, ${outcomes.released} released, 0 both`,
    );
  }, 180_000);
});
