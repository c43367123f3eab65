import { PaymentsEventsForQuestions as Payments } from '@ques/contracts';
import { eventToCommand, type ConsumerDefinition } from '@ques/kit';
import type { QuestionsDB } from '../db/schema.js';
import type { QuestionCommands } from '../questions/commands.js';

/**
 * `questions--tips`: what payments says about a question's tip. `TipAuthorized` turns a question submitted through
 * checkout (`POST /internal/questions/tipped`) into a pending question with its 5-day deadline; `TipCaptured` and
 * `TipRefunded` move the tip status; `CheckoutExpired` removes a question whose checkout ended unpaid (a no-op for a
 * question never handed over, already asked, or already gone). Each runs in the consumer's idempotency transaction; an event for an unknown
 * question fails every delivery and ends in the dead-letter table.
 *
 * Tips of different questions are handled side by side (`concurrency`, ADR 0036): each event's effects touch only its
 * own question's rows (stream, deadline lock, read-model and trust-timing rows, its mails), and one tip's events come
 * from one payments stream, which the bus keeps in order. A burst of authorisations then waits for the slowest of
 * them, not for the sum.
 */
export function tipsConsumer(commands: QuestionCommands): ConsumerDefinition<QuestionsDB> {
  return {
    durable: 'questions--tips',
    context: 'payments',
    concurrency: 4,
    handlers: {
      TipAuthorized: eventToCommand(Payments.TipAuthorized.schema, commands, (d) => ({
        id: d.questionId,
        command: {
          type: 'ConfirmTipAuthorization',
          data: { paymentRef: d.paymentRef, amount: d.amount, currency: d.currency, now: new Date(d.authorizedAt) },
        },
      })),
      TipCaptured: eventToCommand(Payments.TipCaptured.schema, commands, (d) => ({
        id: d.questionId,
        command: { type: 'ConfirmTipCapture', data: { paymentRef: d.paymentRef, now: new Date(d.capturedAt) } },
      })),
      TipRefunded: eventToCommand(Payments.TipRefunded.schema, commands, (d) => ({
        id: d.questionId,
        command: { type: 'ConfirmTipRelease', data: { paymentRef: d.paymentRef, now: new Date(d.refundedAt) } },
      })),
      CheckoutExpired: eventToCommand(Payments.CheckoutExpired.schema, commands, (d) => ({
        id: d.questionId,
        command: { type: 'ExpireTippedCheckout', data: { paymentRef: d.paymentRef, now: new Date(d.expiredAt) } },
      })),
    },
  };
}
