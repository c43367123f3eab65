import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { PaymentsEventsForQuestions, type EventEnvelope } from '@ques/contracts';
import type { ConsumerDefinition, EventMetadata } from '@ques/kit';
import type { QuestionsDB } from '../db/schema.js';
import type { QuestionCommands } from '../questions/commands.js';

type Data<K extends keyof typeof PaymentsEventsForQuestions> = z.infer<
  (typeof PaymentsEventsForQuestions)[K]['schema']
>;

const causedBy = (envelope: EventEnvelope): EventMetadata => ({
  correlationId: envelope.correlationId,
  causationId: envelope.id,
  actor: null,
});

/**
 * `questions--tips`: what payments says about a question's tip. `TipAuthorized` turns a question submitted through
 * checkout (`POST /internal/questions/tipped`) into a pending question with its 5-day deadline; `TipCaptured` and
 * `TipRefunded` move the tip status. Each runs in the consumer's idempotency transaction; an event for an unknown
 * question fails every delivery and ends in the dead-letter table.
 */
export function tipsConsumer(commands: QuestionCommands): ConsumerDefinition<QuestionsDB> {
  return {
    durable: 'questions--tips',
    context: 'payments',
    handlers: {
      TipAuthorized: {
        schema: PaymentsEventsForQuestions.TipAuthorized.schema,
        effect: async (trx: Kysely<QuestionsDB>, envelope: EventEnvelope<Data<'TipAuthorized'>>) => {
          const d = envelope.data;
          await commands.handle(
            d.questionId,
            {
              type: 'ConfirmTipAuthorization',
              data: {
                paymentRef: d.paymentRef,
                amount: d.amount,
                currency: d.currency,
                now: new Date(d.authorizedAt),
              },
            },
            causedBy(envelope),
            { transaction: trx },
          );
        },
      },
      TipCaptured: {
        schema: PaymentsEventsForQuestions.TipCaptured.schema,
        effect: async (trx: Kysely<QuestionsDB>, envelope: EventEnvelope<Data<'TipCaptured'>>) => {
          const d = envelope.data;
          await commands.handle(
            d.questionId,
            { type: 'ConfirmTipCapture', data: { paymentRef: d.paymentRef, now: new Date(d.capturedAt) } },
            causedBy(envelope),
            { transaction: trx },
          );
        },
      },
      TipRefunded: {
        schema: PaymentsEventsForQuestions.TipRefunded.schema,
        effect: async (trx: Kysely<QuestionsDB>, envelope: EventEnvelope<Data<'TipRefunded'>>) => {
          const d = envelope.data;
          await commands.handle(
            d.questionId,
            { type: 'ConfirmTipRelease', data: { paymentRef: d.paymentRef, now: new Date(d.refundedAt) } },
            causedBy(envelope),
            { transaction: trx },
          );
        },
      },
    },
  };
}
