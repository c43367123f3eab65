import type { Kysely } from 'kysely';
import { CommandHandler, scheduleJob, type Clock, type EventStore, type RecordedEvent } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import { tipDecider, type TipCommand } from './domain/decide.js';
import { tipStreamId, type TipEvent, type TipState } from './domain/tip.js';

export const SETTLE_TIP_JOB = 'payments.settle-tip';
export const CHECKOUT_EXPIRY_JOB = 'payments.checkout-expiry';
export const settleTipKey = (questionId: string) => `settle-tip:${questionId}`;
export const checkoutExpiryKey = (questionId: string) => `checkout-expiry:${questionId}`;
/** The safety net looks at a checkout this long after it expired (the provider's webhook normally comes first). */
export const CHECKOUT_EXPIRY_GRACE_MS = 60_000;

/** Commands on a tip (`tip-<questionId>` streams), through the kit's one command handler. */
export type TipCommands = CommandHandler<TipCommand, TipEvent, TipState, PaymentsDB>;

/**
 * Locks the tip's row (`tips`, the inline read model): all work on one tip — HTTP calls, questions' events, webhooks,
 * scheduled jobs, several instances — is serialized and decided on fresh state. Only the scheduler locks existing job
 * rows, and only before the tip row, so nothing deadlocks.
 */
export async function lockTip(trx: Kysely<PaymentsDB>, questionId: string): Promise<void> {
  await trx.selectFrom('tips').select('question_id').where('question_id', '=', questionId).forUpdate().execute();
}

/**
 * Tip commands. What must happen later commits with the decision: a checkout schedules its expiry check; a capture
 * or release request schedules the settle job that carries it out at the provider (see settlement.ts).
 */
export function tipCommands(store: EventStore<PaymentsDB>, clock: Clock): TipCommands {
  return new CommandHandler(store, {
    decider: tipDecider,
    streamId: tipStreamId,
    lock: lockTip,
    sideEffects: async (trx, recorded) => {
      for (const event of recorded) await scheduleFollowUp(trx, event, clock);
    },
  });
}

async function scheduleFollowUp(trx: Kysely<PaymentsDB>, recorded: RecordedEvent<TipEvent>, clock: Clock): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as TipEvent;
  switch (event.type) {
    case 'CheckoutStarted': {
      const { questionId, expiresAt } = event.data;
      await scheduleJob(trx, {
        kind: CHECKOUT_EXPIRY_JOB,
        key: checkoutExpiryKey(questionId),
        dueAt: new Date(Date.parse(expiresAt) + CHECKOUT_EXPIRY_GRACE_MS),
        payload: { questionId },
      });
      return;
    }
    case 'TipCaptureRequested':
    case 'TipReleaseRequested':
      await scheduleJob(trx, {
        kind: SETTLE_TIP_JOB,
        key: settleTipKey(event.data.questionId),
        dueAt: clock(),
        payload: { questionId: event.data.questionId },
      });
      return;
    case 'TipAuthorized':
    case 'TipCaptured':
    case 'TipRefunded':
    case 'CheckoutExpired':
      return;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
