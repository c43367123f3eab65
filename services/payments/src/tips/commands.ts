import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import {
  scheduleJob,
  type Clock,
  type EventMetadata,
  type EventStore,
  type JobHandler,
  type RecordedEvent,
} from '@ques/kit';
import { decideWithin } from '../es.js';
import { idempotencyKeys, type PaymentProvider } from '../providers/provider.js';
import { tipDecider, type TipCommand } from './domain/decide.js';
import { tipStreamId, type TipEvent, type TipState } from './domain/tip.js';

export const SETTLE_TIP_JOB = 'payments.settle-tip';
export const CHECKOUT_EXPIRY_JOB = 'payments.checkout-expiry';
export const settleTipKey = (questionId: string) => `settle-tip:${questionId}`;
export const checkoutExpiryKey = (questionId: string) => `checkout-expiry:${questionId}`;
/** The safety net looks at a checkout this long after it expired (the provider's webhook normally comes first). */
export const CHECKOUT_EXPIRY_GRACE_MS = 60_000;

export interface TipCommandsDeps {
  store: EventStore;
  clock: Clock;
  log: Logger;
  provider: PaymentProvider;
}

type Result = { state: TipState; events: RecordedEvent[] };

const systemMetadata = (correlationId: string): EventMetadata => ({
  correlationId,
  causationId: null,
  actor: null,
});

/**
 * Runs tip commands and carries out their decisions at the provider.
 *
 * Every command locks the tip's row (`tips`, the inline read model) first, so all work on one tip — HTTP calls,
 * questions' events, webhooks, scheduled jobs, several instances — is serialized and decided on fresh state.
 * Capture and release are decided before anything is asked of the provider (`TipCaptureRequested` /
 * `TipReleaseRequested`, with a settle job in the same transaction), then executed with a deterministic idempotency
 * key and recorded (`TipCaptured` / `TipRefunded`). A crash in between leaves the job, which repeats the same
 * idempotent call. Only the scheduler locks existing job rows, and only before the tip row, so nothing deadlocks.
 */
export class TipCommands {
  constructor(private readonly deps: TipCommandsDeps) {}

  async run(
    questionId: string,
    command: TipCommand,
    metadata: EventMetadata,
    within?: Kysely<any>,
  ): Promise<Result> {
    const work = async (trx: Kysely<any>) => {
      await this.lock(trx, questionId);
      return this.apply(trx, questionId, command, metadata);
    };
    return within ? work(within) : this.deps.store.db.transaction().execute(work);
  }

  /** Carries out a decided capture or release now (the HTTP calls want the outcome in their answer). */
  async settleNow(questionId: string, metadata: EventMetadata): Promise<TipState> {
    return this.deps.store.db.transaction().execute((trx) => this.settle(trx, questionId, metadata));
  }

  /** The scheduler's handlers: settle a decided tip; look at a checkout after its expiry. */
  jobs(): Record<string, JobHandler> {
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
    trx: Kysely<any>,
    questionId: string,
    metadata: EventMetadata,
    opts: { expireIfOpen?: boolean } = {},
  ): Promise<TipState> {
    await this.lock(trx, questionId);
    let { state } = await this.deps.store.load(tipStreamId(questionId), tipDecider, trx);
    if (state.status === 'none' || state.status === 'captured' || state.status === 'released') return state;
    const snapshot = await this.deps.provider.retrieveCheckout(state.paymentRef, trx);
    const now = this.deps.clock();
    const step = async (command: TipCommand) =>
      (state = (await this.apply(trx, questionId, command, metadata)).state);
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

  private async settle(trx: Kysely<any>, questionId: string, metadata: EventMetadata): Promise<TipState> {
    await this.lock(trx, questionId);
    const { state } = await this.deps.store.load(tipStreamId(questionId), tipDecider, trx);
    const now = () => this.deps.clock();
    if (state.status === 'capturing') {
      const outcome = await this.deps.provider.capture(
        { paymentIntentId: state.paymentIntentId!, idempotencyKey: idempotencyKeys.capture(questionId) },
        trx,
      );
      const command: TipCommand =
        outcome === 'captured'
          ? { type: 'RecordCapture', data: { now: now() } }
          : // The authorization lapsed or was cancelled before we could capture: nothing was charged.
            { type: 'RecordRelease', data: { reason: 'cancelled', now: now() } };
      return (await this.apply(trx, questionId, command, metadata)).state;
    }
    if (state.status === 'releasing') {
      const outcome = await this.deps.provider.release(
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
      return (
        await this.apply(
          trx,
          questionId,
          { type: 'RecordRelease', data: { reason: state.releaseReason ?? 'cancelled', now: now() } },
          metadata,
        )
      ).state;
    }
    return state;
  }

  private async lock(trx: Kysely<any>, questionId: string): Promise<void> {
    await trx
      .selectFrom('tips')
      .select('question_id')
      .where('question_id', '=', questionId)
      .forUpdate()
      .execute();
  }

  private async apply(
    trx: Kysely<any>,
    questionId: string,
    command: TipCommand,
    metadata: EventMetadata,
  ): Promise<Result> {
    const result = await decideWithin(
      this.deps.store,
      trx,
      tipStreamId(questionId),
      tipDecider,
      command,
      metadata,
    );
    for (const recorded of result.events)
      await this.sideEffects(trx, { type: recorded.type, data: recorded.data } as TipEvent);
    return result;
  }

  private async sideEffects(trx: Kysely<any>, event: TipEvent): Promise<void> {
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
          dueAt: this.deps.clock(),
          payload: { questionId: event.data.questionId },
        });
        return;
      case 'TipAuthorized':
      case 'TipCaptured':
      case 'TipRefunded':
        return;
      default: {
        const unknown: never = event;
        return unknown;
      }
    }
  }
}
