import { randomUUID } from 'node:crypto';
import {
  applicationFeeCents,
  ASK_MESSAGES,
  checkAskDraft,
  checkDonationAmount,
  DEFAULT_PAGE_SIZE,
  isUuid,
  MAX_PAGE_SIZE,
  NEXT_CURSOR_HEADER,
  PAYMENT_MESSAGES,
  ZCreateCheckoutSessionRequest,
  type CheckoutSessionResponse,
  type EarningsResponse,
  type PaymentActionResponse,
} from '@ques/contracts';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  metadataFrom,
  notFound,
  optionalUser,
  parseWith,
  requireUser,
  unprocessable,
  type AccessClaims,
  type HttpApp,
  type ServiceContext,
} from '@ques/kit';
import type { PaymentsDB } from '../db/schema.js';
import type { PayoutAccountsReadModel } from '../accounts/read-models/payout-accounts.js';
import { assertOwnUserId, PAYMENT_STATUS, valid } from '../http.js';
import { idempotencyKeys, type CheckoutCreated, type PaymentProvider } from '../providers/provider.js';
import type { TipOptionsReadModel } from '../tip-options/read-models/tip-options.js';
import type { UsersReadModel } from '../users/users.js';
import type { TipCommands } from './commands.js';
import type { TipSettlement } from './settlement.js';
import type { QuestionsClient } from './questions-client.js';
import { screenCheckout } from './screening.js';
import type { TipRow, TipsReadModel } from './read-models/tips.js';

export interface TipRoutesDeps {
  ctx: ServiceContext<PaymentsDB>;
  provider: PaymentProvider;
  commands: TipCommands;
  settlement: TipSettlement;
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
  /** How long finalize-payment waits for the answer to reach payments (it is published a moment after the answer). */
  finalizeWaitMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function registerTipRoutes(app: HttpApp, deps: TipRoutesDeps): Promise<void> {
  const { ctx, provider, commands, settlement, tips, tipOptions, accounts, users } = deps;
  const { clock } = ctx;

  function questionIdOf(raw: string): string {
    if (!isUuid(raw)) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    return raw.toLowerCase();
  }

  /** A party to the tip gets a 403 for what is not theirs to do; anyone else learns nothing (404). */
  async function tipFor(
    questionId: string,
    claims: AccessClaims,
    allowed: (tip: TipRow) => boolean,
    message: string,
  ): Promise<TipRow> {
    const tip = await tips.byQuestion(questionId);
    if (!tip) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    if (allowed(tip)) return tip;
    if (tip.recipient_user_id === claims.sub || tip.asker_user_id === claims.sub) throw forbidden(message);
    throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  }

  const answer = (tip: TipRow, message: string): PaymentActionResponse => ({
    message,
    questionId: tip.question_id,
    status: PAYMENT_STATUS[tip.status],
  });

  // Spec §7: validates like a free ask, then the tip against the owner's settings; the question is handed to
  // questions (kept invisible) and appears when the provider says the card is authorized.
  app.post('/api/checkout/create-checkout-session', async (request): Promise<CheckoutSessionResponse> => {
    const claims = await optionalUser(request);
    const body = parseWith(ZCreateCheckoutSessionRequest, request.body);
    const questionData =
      body.agreedToTerms === true && body.questionData.agreedToTerms === undefined
        ? { ...body.questionData, agreedToTerms: true }
        : body.questionData;
    const draft = valid(checkAskDraft(questionData, { signedIn: !!claims }));
    const recipient = await users.byId(draft.toUserId);
    if (!recipient) throw badRequest(ASK_MESSAGES.recipientMissing);
    if (!recipient.has_email) throw badRequest(ASK_MESSAGES.recipientEmailMissing);
    if (recipient.archive_profile) throw unprocessable(ASK_MESSAGES.archiveProfile);
    if (claims?.sub === recipient.user_id) throw unprocessable('You cannot tip your own profile.');
    const [options, account] = await Promise.all([
      tipOptions.byUser(recipient.user_id),
      accounts.byUser(recipient.user_id),
    ]);
    if (!options?.tipping_enabled) throw unprocessable(PAYMENT_MESSAGES.notAcceptingTips);
    if (!account || account.status !== 'completed') throw unprocessable(PAYMENT_MESSAGES.cannotReceiveTips);
    const amount = valid(checkDonationAmount(body.donationAmount, options.tip_options));

    const questionId = randomUUID();
    await screenCheckout(deps.questions, request, draft, claims?.sub ?? null, questionId); // issue 16: before any hold
    const now = clock();
    const expiresAt = new Date(now.getTime() + deps.checkoutTtlMs);
    const back = `${deps.publicOrigin}/ask/${encodeURIComponent(recipient.username)}`;
    const applicationFee = applicationFeeCents(amount);
    let created: CheckoutCreated;
    try {
      created = await provider.createCheckout({
        questionId,
        recipientUserId: recipient.user_id,
        recipientName: recipient.name || recipient.username,
        destinationAccountId: account.account_id,
        amount,
        applicationFee,
        currency: deps.currency,
        successUrl: `${back}?checkout=success&questionId=${questionId}&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${back}?checkout=cancelled&questionId=${questionId}`,
        expiresAt,
        idempotencyKey: idempotencyKeys.checkout(questionId),
      });
    } catch (err) {
      request.log.error({ err, questionId }, 'the payment provider refused the checkout');
      throw new AppError('UNAVAILABLE', PAYMENT_MESSAGES.checkoutFailed);
    }
    /** Nothing may stay payable for a question that will never exist. */
    const abandon = async () => {
      await provider
        .release({ sessionId: created.sessionId, idempotencyKeyPrefix: idempotencyKeys.release(questionId) })
        .catch((err) =>
          request.log.warn({ err, questionId }, 'could not expire an unused checkout; it expires on its own'),
        );
    };
    try {
      await deps.questions.submitTippedQuestion(
        {
          questionId,
          questionData,
          askerUserId: claims?.sub ?? null,
          tipAmount: amount,
          currency: deps.currency,
          paymentRef: created.sessionId,
        },
        request.correlationId,
      );
      await commands.handle(
        questionId,
        {
          type: 'StartCheckout',
          data: {
            questionId,
            recipientUserId: recipient.user_id,
            askerUserId: claims?.sub ?? null,
            accountId: account.account_id,
            paymentRef: created.sessionId,
            amount,
            currency: deps.currency,
            now,
            expiresAt,
          },
        },
        metadataFrom(request, claims?.sub ?? null),
      );
    } catch (err) {
      await abandon();
      throw err;
    }
    request.log.info(
      { questionId, sessionId: created.sessionId, amount, recipientUserId: recipient.user_id },
      'checkout started',
    );
    return {
      sessionId: created.sessionId,
      paymentIntentId: created.paymentIntentId,
      url: created.url,
      questionId,
      message: 'Checkout session created',
    };
  });

  // Spec §7: after answering. The capture itself follows the answer (questions' AnswerPosted); this call makes sure
  // it happened and answers with the outcome. It never captures a tip whose question payments has not seen answered.
  app.post(
    '/api/payments/process/:id/finalize-payment',
    async (request, reply): Promise<PaymentActionResponse> => {
      const claims = await requireUser(request);
      const questionId = questionIdOf((request.params as { id: string }).id);
      let tip = await tipFor(
        questionId,
        claims,
        (t) => t.recipient_user_id === claims.sub,
        PAYMENT_MESSAGES.onlyRecipientFinalizes,
      );
      const deadline = Date.now() + deps.finalizeWaitMs;
      while (tip.status === 'authorized' && Date.now() < deadline) {
        await sleep(50);
        tip = (await tips.byQuestion(questionId)) ?? tip;
      }
      switch (tip.status) {
        case 'started':
          throw conflict(PAYMENT_MESSAGES.notPaidYet);
        case 'authorized':
          throw conflict(PAYMENT_MESSAGES.needsAnswer);
        case 'releasing':
        case 'released':
          throw conflict(PAYMENT_MESSAGES.released);
        case 'captured':
          return answer(tip, PAYMENT_MESSAGES.captured);
        case 'capturing':
          break;
        default: {
          const unknown: never = tip.status;
          throw new Error(`unknown tip status ${String(unknown)}`);
        }
      }
      try {
        const state = await settlement.settleNow(questionId, metadataFrom(request, claims.sub));
        if (state.status === 'captured')
          return answer({ ...tip, status: 'captured' }, PAYMENT_MESSAGES.captured);
        if (state.status === 'released') throw conflict(PAYMENT_MESSAGES.released);
      } catch (err) {
        if (err instanceof AppError) throw err;
        request.log.warn({ err, questionId }, 'capture failed for now; the settle job retries it');
      }
      void reply.status(202);
      return answer(tip, PAYMENT_MESSAGES.capturing);
    },
  );

  // Spec §7: before the recipient deletes a pending tipped question; the asker may cancel too. Releases the hold.
  app.post(
    '/api/payments/process/:id/cancel-payment',
    async (request, reply): Promise<PaymentActionResponse> => {
      const claims = await requireUser(request);
      const questionId = questionIdOf((request.params as { id: string }).id);
      const tip = await tipFor(
        questionId,
        claims,
        (t) => t.recipient_user_id === claims.sub || t.asker_user_id === claims.sub,
        PAYMENT_MESSAGES.onlyPartiesCancel,
      );
      const metadata = metadataFrom(request, claims.sub);
      await commands.handle(
        questionId,
        { type: 'RequestRelease', data: { reason: 'cancelled', now: clock() } },
        metadata,
      );
      try {
        const state = await settlement.settleNow(questionId, metadata);
        if (state.status === 'released')
          return answer({ ...tip, status: 'released' }, PAYMENT_MESSAGES.cancelled);
      } catch (err) {
        request.log.warn({ err, questionId }, 'release failed for now; the settle job retries it');
      }
      void reply.status(202);
      return answer({ ...tip, status: 'releasing' }, PAYMENT_MESSAGES.cancelled);
    },
  );

  // The owner's earnings: one ledger entry per captured tip (amount, platform fee, net), newest first.
  app.get('/api/payments/earnings', async (request, reply): Promise<EarningsResponse> => {
    const claims = await requireUser(request);
    const query = request.query as { userId?: unknown; limit?: unknown; cursor?: unknown };
    assertOwnUserId(query.userId, claims);
    const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
      throw badRequest(`limit must be between 1 and ${MAX_PAGE_SIZE}`);
    const cursor = typeof query.cursor === 'string' && query.cursor ? query.cursor : undefined;
    const [page, totals] = await Promise.all([
      tips.ledgerPage(claims.sub, limit, cursor),
      tips.ledgerTotals(claims.sub),
    ]);
    if (page.nextCursor) void reply.header(NEXT_CURSOR_HEADER, page.nextCursor);
    return {
      totals: { ...totals, currency: page.entries[0]?.currency ?? deps.currency },
      entries: page.entries,
    };
  });
}
