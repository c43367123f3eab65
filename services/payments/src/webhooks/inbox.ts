import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { scheduleJob, type Clock, type JobHandler, type Scheduler } from '@ques/kit';
import type { AccountSync } from '../accounts/account-sync.js';
import type { PaymentsDB } from '../db/schema.js';
import type { PaymentProvider, ProviderEvent } from '../providers/provider.js';
import type { TipCommands } from '../tips/commands.js';
import type { TipSettlement } from '../tips/settlement.js';
import type { TipsReadModel } from '../tips/read-models/tips.js';

export const WEBHOOK_JOB = 'payments.webhook';
export const webhookJobKey = (eventId: string) => `webhook:${eventId}`;

export interface WebhookInboxDeps {
  db: Kysely<PaymentsDB>;
  log: Logger;
  clock: Clock;
  settlement: TipSettlement;
  accounts: AccountSync;
  tips: TipsReadModel;
  /** Re-reads a checkout that has no tip (was it abandoned before its tip was recorded?). */
  provider: PaymentProvider;
  /** Records the expiry of such a checkout (`CheckoutExpired`, so questions lets go of its question). */
  commands: TipCommands;
  /** Runs the processing jobs; `kick` asks it to run them now. */
  scheduler: Scheduler<PaymentsDB>;
}

/** The checkout and PaymentIntent events that mean "look at this tip again". */
const CHECKOUT_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.expired',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
]);
const PAYMENT_INTENT_EVENTS = new Set([
  'payment_intent.amount_capturable_updated',
  'payment_intent.succeeded',
  'payment_intent.canceled',
  'payment_intent.payment_failed',
]);

/**
 * Provider events in, exactly once each. `accept` stores the event under its provider id (a redelivery finds the
 * id taken and stops there) together with a job that processes it, and returns: the webhook answers in
 * milliseconds. The job treats the event as a pointer only — it re-reads the checkout or account from the provider
 * and moves the aggregate forward to match — so deliveries in any order, repeated or late, converge on one state.
 */
export class WebhookInbox {
  private kicking: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: WebhookInboxDeps) {}

  /** Records the event and its processing job in `trx` (or a transaction of its own). */
  async accept(event: ProviderEvent, trx?: Kysely<PaymentsDB>): Promise<{ duplicate: boolean }> {
    const work = async (t: Kysely<PaymentsDB>) => {
      const inserted = await t
        .insertInto('webhook_events')
        .values({
          event_id: event.id,
          type: event.type,
          object_id: event.objectId,
          question_id: event.questionId,
          payload: JSON.stringify(event.payload),
          received_at: this.deps.clock(),
        })
        .onConflict((oc) =>
          oc
            .column('event_id')
            .doUpdateSet((eb) => ({ deliveries: eb(eb.ref('webhook_events.deliveries'), '+', 1) })),
        )
        .returning(['deliveries'])
        .executeTakeFirstOrThrow();
      const duplicate = Number(inserted.deliveries) > 1;
      if (!duplicate) {
        await scheduleJob(t, {
          kind: WEBHOOK_JOB,
          key: webhookJobKey(event.id),
          dueAt: this.deps.clock(),
          payload: { eventId: event.id },
        });
      }
      return { duplicate };
    };
    return trx ? work(trx) : this.deps.db.transaction().execute(work);
  }

  /** Processes due jobs now instead of at the next poll (several calls while one runs coalesce into one more run). */
  kick(): void {
    const { scheduler } = this.deps;
    if (this.kicking) {
      this.again = true;
      return;
    }
    this.kicking = (async () => {
      do {
        this.again = false;
        await scheduler
          .runDue()
          .catch((err) => this.deps.log.warn({ err }, 'webhook processing failed; the scheduler retries'));
      } while (this.again);
    })().finally(() => (this.kicking = null));
  }

  /** Resolves when a kick in progress is done (tests and shutdown). */
  async settled(): Promise<void> {
    await this.kicking;
  }

  /**
   * A checkout whose start failed after the provider created it has no tip, and never will: its session is expired
   * (by us, or at its own expiry) or its PaymentIntent cancelled. Its events finish as no-ops — a checkout expiry
   * records `CheckoutExpired` so a question handed to questions for it goes too. Anything else (the session is open
   * or paid) means its tip may still commit: the job retries.
   */
  private async abandonedUnrecorded(
    trx: Kysely<PaymentsDB>,
    type: string,
    objectId: string,
    questionId: string,
    metadata: { correlationId: string; causationId: null; actor: null },
  ): Promise<boolean> {
    if (type === 'payment_intent.canceled') return true;
    if (!CHECKOUT_EVENTS.has(type)) return false;
    const snapshot = await this.deps.provider.retrieveCheckout(objectId, trx);
    if (snapshot.status !== 'expired') return false;
    await this.deps.commands.handle(
      questionId,
      {
        type: 'RecordUnrecordedCheckoutExpiry',
        data: { questionId, paymentRef: snapshot.sessionId, now: this.deps.clock() },
      },
      metadata,
      { transaction: trx },
    );
    return true;
  }

  job(): JobHandler<PaymentsDB> {
    return async (trx, job) => {
      const { eventId } = job.payload as { eventId: string };
      const row = await trx
        .selectFrom('webhook_events')
        .selectAll()
        .where('event_id', '=', eventId)
        .executeTakeFirst();
      if (!row) return;
      const metadata = { correlationId: `webhook-${eventId}`, causationId: null, actor: null };
      const { type } = row;
      if (CHECKOUT_EVENTS.has(type) || PAYMENT_INTENT_EVENTS.has(type)) {
        const tip = CHECKOUT_EVENTS.has(type)
          ? await this.deps.tips.byPaymentRef(row.object_id, trx)
          : await this.deps.tips.byPaymentIntent(row.object_id, trx);
        const questionId = tip?.question_id ?? row.question_id;
        if (questionId && (tip || (await this.deps.tips.byQuestion(questionId, trx)))) {
          await this.deps.settlement.sync(trx, questionId, metadata);
        } else if (questionId) {
          if (!(await this.abandonedUnrecorded(trx, type, row.object_id, questionId, metadata))) {
            // Ours (our metadata), but the checkout's own transaction has not committed yet: try again shortly.
            throw new Error(
              `webhook ${eventId} (${type}) is for question ${questionId}, which has no checkout yet`,
            );
          }
          this.deps.log.info(
            { eventId, type, questionId },
            'webhook for a checkout abandoned before its tip was recorded: nothing to settle',
          );
        } else {
          this.deps.log.info({ eventId, type }, 'webhook for an object that is not ours: ignored');
        }
      } else if (type === 'account.updated') {
        await this.deps.accounts.syncByAccountId(row.object_id, metadata, trx);
      } else {
        this.deps.log.debug({ eventId, type }, 'webhook type not used: ignored');
      }
      await trx
        .updateTable('webhook_events')
        .set({ processed_at: this.deps.clock() })
        .where('event_id', '=', eventId)
        .execute();
    };
  }
}
