import {
  applicationFeeCents,
  ASK_MESSAGES,
  checkAskDraft,
  checkDonationAmount,
  PAYMENT_MESSAGES,
  statusConfirmationPath,
  type CheckoutSessionResponse,
  type CreateCheckoutSessionRequest,
} from '@ques/contracts';
import {
  AppError,
  badRequest,
  unprocessable,
  type AccessClaims,
  type Clock,
  type EventMetadata,
} from '@ques/kit';
import type { BaseLogger } from 'pino';
import type { PayoutAccountsReadModel } from '../accounts/read-models/payout-accounts.js';
import { valid } from '../http.js';
import { idempotencyKeys, type CheckoutCreated, type PaymentProvider } from '../providers/provider.js';
import type { TipOptionsReadModel } from '../tip-options/read-models/tip-options.js';
import type { UsersReadModel } from '../users/users.js';
import type { TipCommands } from './commands.js';
import type { QuestionsClient } from './questions-client.js';
import { screenCheckout } from './screening.js';
import type { TipsReadModel } from './read-models/tips.js';

type Logger = Pick<BaseLogger, 'info' | 'warn' | 'error'>;

export interface CheckoutDeps {
  clock: Clock;
  provider: PaymentProvider;
  commands: TipCommands;
  questions: QuestionsClient;
  tips: TipsReadModel;
  tipOptions: TipOptionsReadModel;
  accounts: PayoutAccountsReadModel;
  users: UsersReadModel;
  /** The web app's origin: where checkout sends the asker back to. */
  publicOrigin: string;
  currency: string;
  /** How long the hosted checkout stays open. */
  checkoutTtlMs: number;
}

/** Who starts a checkout, for which question id, and how the call is traced. */
export interface CheckoutCaller {
  claims: AccessClaims | null;
  /** The question's id: from the request's Idempotency-Key (so a retry names the same checkout), else random. */
  questionId: string;
  metadata: EventMetadata;
  /** The asker's device token (`X-Ques-Device`), for the owner's blocks and guest limit. */
  device: string | null;
  /** The client's address from the trusted proxy chain, for the guest limit's network bucket (ADR 0054). */
  network?: string | null;
  log: Logger;
}

/** A tipped question that passed every check before the provider is asked for anything. */
interface CheckedDraft {
  questionData: Record<string, unknown>;
  recipient: { userId: string; username: string; name: string };
  accountId: string;
  /** Integer cents (the /api's `donationAmount` is dollars: converted once, in `checkDonationAmount`). */
  amountCents: number;
  /** The status link the browser made (issue 28): questions stores it with the question, checkout returns to it. */
  statusToken: string | null;
}

/**
 * The checkout saga (spec §7 `POST /api/checkout/create-checkout-session`), in three steps:
 *
 * 1. `check`: the question with the ask rules, then the owner and their tip settings. Everything that can refuse a
 *    checkout without the provider happens here — the owner's screening (paused, capped, blocked, filtered) ends
 *    this step, before any provider call.
 * 2. `open`: the provider's hosted checkout, under a key derived from the question id (a retry gets the same session).
 * 3. `record`: the question handed to questions (kept invisible until the card is authorized), then the tip's
 *    `CheckoutStarted`. A retry whose first attempt recorded both answers with the same session.
 *
 * If step 3 is refused (a 4xx: the question will never exist), the session is expired at once so nothing stays
 * payable. After a 5xx it is left open for the client's retry with the same Idempotency-Key; unused, it expires on
 * its own, and its expiry webhook finishes as a no-op that lets go of any question handed over (`CheckoutExpired`).
 */
export class CheckoutSaga {
  constructor(private readonly deps: CheckoutDeps) {}

  async start(body: CreateCheckoutSessionRequest, caller: CheckoutCaller): Promise<CheckoutSessionResponse> {
    const draft = await this.check(body, caller);
    const now = this.deps.clock();
    const expiresAt = new Date(now.getTime() + this.deps.checkoutTtlMs);
    const created = await this.open(draft, expiresAt, caller);
    await this.record(draft, created, { now, expiresAt }, caller);
    caller.log.info(
      {
        questionId: caller.questionId,
        sessionId: created.sessionId,
        amountCents: draft.amountCents,
        recipientUserId: draft.recipient.userId,
      },
      'checkout started',
    );
    return {
      sessionId: created.sessionId,
      paymentIntentId: created.paymentIntentId,
      url: created.url,
      questionId: caller.questionId,
      message: 'Checkout session created',
    };
  }

  /** Step 1: validates like a free ask, then the tip against the owner's settings. No provider call. */
  private async check(body: CreateCheckoutSessionRequest, caller: CheckoutCaller): Promise<CheckedDraft> {
    const { users, tipOptions, accounts } = this.deps;
    const { claims } = caller;
    const questionData =
      body.agreedToTerms === true && body.questionData.agreedToTerms === undefined
        ? { ...body.questionData, agreedToTerms: true }
        : body.questionData;
    const draft = valid(checkAskDraft(questionData, { signedIn: !!claims }));
    const recipient = await users.byId(draft.toUserId);
    if (!recipient) throw badRequest(ASK_MESSAGES.recipientMissing);
    if (!recipient.has_email) throw badRequest(ASK_MESSAGES.recipientEmailMissing);
    if (recipient.archive_profile) throw unprocessable(ASK_MESSAGES.archiveProfile);
    if (claims?.sub === recipient.user_id) throw unprocessable(PAYMENT_MESSAGES.ownProfile);
    const [options, account] = await Promise.all([
      tipOptions.byUser(recipient.user_id),
      accounts.byUser(recipient.user_id),
    ]);
    if (!options?.tipping_enabled) throw unprocessable(PAYMENT_MESSAGES.notAcceptingTips);
    if (!account || account.status !== 'completed') throw unprocessable(PAYMENT_MESSAGES.cannotReceiveTips);
    const amountCents = valid(checkDonationAmount(body.donationAmount, options.tip_options));
    // The owner's screening (paused, capped, blocked, filtered; issue 16): the last check before the provider.
    await screenCheckout(this.deps.questions, draft, {
      askerUserId: claims?.sub ?? null,
      questionId: caller.questionId,
      device: caller.device,
      network: caller.network ?? null,
      correlationId: caller.metadata.correlationId,
    });
    return {
      questionData,
      recipient: {
        userId: recipient.user_id,
        username: recipient.username,
        name: recipient.name || recipient.username,
      },
      accountId: account.account_id,
      amountCents,
      statusToken: draft.statusToken,
    };
  }

  /** Step 2: the provider's hosted checkout. */
  private async open(draft: CheckedDraft, expiresAt: Date, caller: CheckoutCaller): Promise<CheckoutCreated> {
    const { questionId } = caller;
    const back = `${this.deps.publicOrigin}/ask/${encodeURIComponent(draft.recipient.username)}`;
    // Paid: to the confirmation page of the question's status link (issue 28), which waits for the authorization to
    // be recorded; a client that made no link comes back to the profile as before.
    const successUrl = draft.statusToken
      ? `${this.deps.publicOrigin}${statusConfirmationPath(draft.statusToken)}`
      : `${back}?checkout=success&questionId=${questionId}&session_id={CHECKOUT_SESSION_ID}`;
    try {
      return await this.deps.provider.createCheckout({
        questionId,
        recipientUserId: draft.recipient.userId,
        recipientName: draft.recipient.name,
        destinationAccountId: draft.accountId,
        amount: draft.amountCents,
        applicationFee: applicationFeeCents(draft.amountCents),
        currency: this.deps.currency,
        successUrl,
        cancelUrl: `${back}?checkout=cancelled&questionId=${questionId}`,
        expiresAt,
        idempotencyKey: idempotencyKeys.checkout(questionId),
      });
    } catch (err) {
      caller.log.error({ err, questionId }, 'the payment provider refused the checkout');
      throw new AppError('UNAVAILABLE', PAYMENT_MESSAGES.checkoutFailed);
    }
  }

  /** Step 3: the question to questions, then the tip. Both are no-ops on a retry that finds them done. */
  private async record(
    draft: CheckedDraft,
    created: CheckoutCreated,
    { now, expiresAt }: { now: Date; expiresAt: Date },
    caller: CheckoutCaller,
  ): Promise<void> {
    const { questionId, claims, metadata } = caller;
    const { commands, tips, currency } = this.deps;
    try {
      await this.deps.questions.submitTippedQuestion(
        {
          questionId,
          questionData: draft.questionData,
          askerUserId: claims?.sub ?? null,
          amountCents: draft.amountCents,
          currency,
          paymentRef: created.sessionId,
        },
        metadata.correlationId,
      );
      const existing = await tips.byQuestion(questionId);
      if (existing?.payment_ref === created.sessionId) return;
      await commands.handle(
        questionId,
        {
          type: 'StartCheckout',
          data: {
            questionId,
            recipientUserId: draft.recipient.userId,
            askerUserId: claims?.sub ?? null,
            accountId: draft.accountId,
            paymentRef: created.sessionId,
            amount: draft.amountCents,
            currency,
            now,
            expiresAt,
          },
        },
        metadata,
      );
    } catch (err) {
      if (err instanceof AppError && err.status < 500) await this.abandon(created, caller);
      throw err;
    }
  }

  /** Nothing may stay payable for a question that will never exist. */
  private async abandon(created: CheckoutCreated, caller: CheckoutCaller): Promise<void> {
    const { questionId } = caller;
    await this.deps.provider
      .release({ sessionId: created.sessionId, idempotencyKeyPrefix: idempotencyKeys.release(questionId) })
      .catch((err) =>
        caller.log.warn({ err, questionId }, 'could not expire an unused checkout; it expires on its own'),
      );
  }
}
