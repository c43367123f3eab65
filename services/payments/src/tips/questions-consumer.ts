import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { QuestionsEvents, type EventEnvelope, type TipReleaseReason } from '@ques/contracts';
import { AppError, causedBy, ConcurrencyError, type ConsumerDefinition } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import type { TipCommands } from './commands.js';
import type { TipCommand } from './domain/decide.js';

type Data<K extends keyof typeof QuestionsEvents> = z.infer<(typeof QuestionsEvents)[K]['schema']>;

/**
 * `payments--questions`: what happens to a tipped question decides what happens to its tip. An answer captures;
 * withdrawal, deletion and the 5-day deadline release. Each effect only records the decision (and its settle job)
 * in the consumer's idempotency transaction; the provider call follows in the job.
 *
 * A decision that lost a race (an answer arriving after cancel-payment released the tip, say) is not an error to
 * retry: the tip already went the other way, and questions learns it from `TipCaptured` / `TipRefunded`.
 *
 * Questions of different tips are handled side by side (`concurrency`, as `questions--tips`, ADR 0036 and 0046): each
 * effect touches only its own question's tip (stream, `lockTip` row, settle job), and one question's events come from
 * one questions stream, which the bus keeps in order. An answer then waits for no other question's decision.
 */
export function questionsConsumer(deps: { commands: TipCommands; log: Logger }): ConsumerDefinition<PaymentsDB> {
  const decide = async (
    trx: Kysely<PaymentsDB>,
    envelope: EventEnvelope,
    questionId: string,
    command: TipCommand,
  ) => {
    try {
      const { events } = await deps.commands.handle(questionId, command, causedBy(envelope), { transaction: trx });
      deps.log.info(
        { questionId, type: envelope.type, decided: events.map((e) => e.type) },
        'tip decision from questions',
      );
    } catch (err) {
      if (
        !(err instanceof AppError) ||
        err instanceof ConcurrencyError ||
        (err.status !== 409 && err.status !== 404)
      )
        throw err;
      deps.log.warn(
        { questionId, type: envelope.type, reason: err.message },
        'tip decision from questions not applied',
      );
    }
  };
  const release =
    (reason: TipReleaseReason) =>
    async (trx: Kysely<PaymentsDB>, envelope: EventEnvelope<{ questionId: string; tipToRelease: unknown }>) => {
      if (!envelope.data.tipToRelease) return;
      await decide(trx, envelope, envelope.data.questionId, {
        type: 'RequestRelease',
        data: { reason, now: new Date(envelope.occurredAt) },
      });
    };
  return {
    durable: 'payments--questions',
    context: 'questions',
    concurrency: 4,
    handlers: {
      AnswerPosted: {
        schema: QuestionsEvents.AnswerPosted.schema,
        effect: async (trx: Kysely<PaymentsDB>, envelope: EventEnvelope<Data<'AnswerPosted'>>) => {
          if (!envelope.data.tipToCapture) return;
          await decide(trx, envelope, envelope.data.questionId, {
            type: 'RequestCapture',
            data: { now: new Date(envelope.data.answeredAt) },
          });
        },
      },
      QuestionWithdrawn: { schema: QuestionsEvents.QuestionWithdrawn.schema, effect: release('withdrawn') },
      QuestionDeletedByReceiver: {
        schema: QuestionsEvents.QuestionDeletedByReceiver.schema,
        effect: release('deleted'),
      },
      AnswerWindowExpired: { schema: QuestionsEvents.AnswerWindowExpired.schema, effect: release('expired') },
    },
  };
}
