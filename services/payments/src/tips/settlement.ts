import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Clock, EventMetadata, JobHandler } from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import { idempotencyKeys, type PaymentProvider } from '../providers/provider.js';
import { CHECKOUT_EXPIRY_JOB, lockTip, SETTLE_TIP_JOB, type TipCommands } from './commands.js';
import type { TipCommand } from './domain/decide.js';
import type { TipState } from './domain/tip.js';

const systemMetadata = (correlationId: string): EventMetadata => ({
  correlationId,
  causationId: null,
  actor: null,
});

export interface TipSettlementDeps {
  db: Kysely<PaymentsDB>;
  tips: TipCommands;
  provider: PaymentProvider;
  clock: Clock;
  log: Logger;
}

/**
 * Carries out tip decisions at the provider. Capture and release are decided before anything is asked of the provider
 * (`TipCaptureRequested` / `TipReleaseRequested`, with a settle job in the same transaction), then executed with a
 * deterministic idempotency key and recorded (`TipCaptured` / `TipRefunded`). A crash in between leaves the job,
 * which repeats the same idempotent call.
 */
export class TipSettlement {
  constructor(private readonly deps: TipSettlementDeps) {}

  /** Carries out a decided capture or release now (the HTTP calls want the outcome in their answer). */
  async settleNow(questionId: string, metadata: EventMetadata): Promise<TipState> {
    return this.deps.db.transaction().execute((trx) => this.settle(trx, questionId, metadata));
  }

  /** The scheduler's handlers: settle a decided tip; look at a checkout after its expiry. */
  jobs(): Record<string, JobHandler<PaymentsDB>> {
    return {
      [SETTLE_TIP_JOB]: async (trx, job) => {
        const { questionId } = job.payload as { questionId: string };
        const state = await this.settle(trx, questionId, systemMetadata(job.key));
        this.deps.log.info({ questionId, status: state.status }, 'tip settled');
      },
      [CHECKOUT_EXPIRY_JOB]: async (trx, job) => {
        const { questionId } = job.payload as { questionId: string };
        await this.sync(trx, questionId, systemMetadata(job.key), { expireIfOpen: true });
      },
    };
  }

  /**
   * Brings the tip in line with what the provider says about its checkout now. Webhooks only tell us to look: the
   * provider's current state is the truth, so repeated, stale and out-of-order deliveries all end in the same state.
   */
  async sync(
    trx: Kysely<PaymentsDB>,
    questionId: string,
    metadata: EventMetadata,
    opts: { expireIfOpen?: boolean } = {},
  ): Promise<TipState> {
    const { tips, provider } = this.deps;
    await lockTip(trx, questionId);
    let { state } = await tips.load(questionId, trx);
    if (state.status === 'none' || state.status === 'captured' || state.status === 'released') return state;
    const snapshot = await provider.retrieveCheckout(state.paymentRef, trx);
    const now = this.deps.clock();
    const step = async (command: TipCommand) =>
      (state = (await tips.handle(questionId, command, metadata, { transaction: trx })).state);
    const pi = snapshot.paymentIntent;
    if (snapshot.status === 'complete' && pi) {
      if (pi.status === 'canceled') await step({ type: 'RecordRelease', data: { reason: 'cancelled', now } });
      else if (pi.status === 'requires_capture' || pi.status === 'succeeded') {
        if (state.status === 'started')
          await step({ type: 'RecordAuthorization', data: { paymentIntentId: pi.id, now } });
        if (pi.status === 'succeeded' && state.status === 'capturing')
          await step({ type: 'RecordCapture', data: { now } });
        if (pi.status === 'succeeded' && state.status === 'authorized') {
          this.deps.log.error(
            { questionId, paymentIntentId: pi.id },
            'tip captured at the provider without an answer; left for review',
          );
        }
      }
      return state;
    }
    if (snapshot.status === 'expired') {
      if (state.status === 'started' || state.status === 'releasing')
        await step({ type: 'RecordRelease', data: { reason: 'abandoned', now } });
      return state;
    }
    if (opts.expireIfOpen && state.status === 'started' && now.getTime() >= Date.parse(state.expiresAt)) {
      await step({ type: 'RequestRelease', data: { reason: 'abandoned', now } });
      return this.settle(trx, questionId, metadata);
    }
    return state;
  }

  private async settle(
    trx: Kysely<PaymentsDB>,
    questionId: string,
    metadata: EventMetadata,
  ): Promise<TipState> {
    const { tips, provider } = this.deps;
    await lockTip(trx, questionId);
    const { state } = await tips.load(questionId, trx);
    const now = () => this.deps.clock();
    const record = async (command: TipCommand) =>
      (await tips.handle(questionId, command, metadata, { transaction: trx })).state;
    if (state.status === 'capturing') {
      const outcome = await provider.capture(
        { paymentIntentId: state.paymentIntentId!, idempotencyKey: idempotencyKeys.capture(questionId) },
        trx,
      );
      return record(
        outcome === 'captured'
          ? { type: 'RecordCapture', data: { now: now() } }
          : // The authorization lapsed or was cancelled before we could capture: nothing was charged.
            { type: 'RecordRelease', data: { reason: 'cancelled', now: now() } },
      );
    }
    if (state.status === 'releasing') {
      const outcome = await provider.release(
        { sessionId: state.paymentRef, idempotencyKeyPrefix: idempotencyKeys.release(questionId) },
        trx,
      );
      if (outcome === 'captured') {
        this.deps.log.error(
          { questionId, paymentRef: state.paymentRef },
          'release asked for a tip the provider shows as captured; left for review',
        );
        return state;
      }
      return record({
        type: 'RecordRelease',
        data: { reason: state.releaseReason ?? 'cancelled', now: now() },
      });
    }
    return state;
  }
}
