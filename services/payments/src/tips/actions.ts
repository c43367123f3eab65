import {
  DEFAULT_PAGE_SIZE,
  isUuid,
  MAX_PAGE_SIZE,
  PAYMENT_MESSAGES,
  type EarningsResponse,
  type PaymentActionResponse,
} from '@ques/contracts';
import { AppError, badRequest, conflict, notFound, type AccessClaims, type Clock, type EventMetadata } from '@ques/kit';
import type { BaseLogger } from 'pino';
import { assertOwnUserId, PAYMENT_STATUS } from '../http.js';
import type { TipCommands } from './commands.js';
import { requireTipAccess } from './domain/access.js';
import type { TipRow, TipsReadModel } from './read-models/tips.js';
import type { TipSettlement } from './settlement.js';

type Logger = Pick<BaseLogger, 'info' | 'warn' | 'error'>;

export interface TipActionsDeps {
  clock: Clock;
  commands: TipCommands;
  settlement: TipSettlement;
  tips: TipsReadModel;
  currency: string;
  /** How long finalize-payment waits for the answer to reach payments (it is published a moment after the answer). */
  finalizeWaitMs: number;
}

/** An action's answer and its status: 200 when done, 202 while the provider call is still to be made. */
export interface ActionOutcome {
  status: 200 | 202;
  body: PaymentActionResponse;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const parties = (tip: TipRow) => ({ recipientUserId: tip.recipient_user_id, askerUserId: tip.asker_user_id });

const answer = (tip: TipRow, message: string, status: 200 | 202 = 200): ActionOutcome => ({
  status,
  body: { message, questionId: tip.question_id, status: PAYMENT_STATUS[tip.status] },
});

/** What the owner and the asker do with a tip (finalize, cancel) and the owner's earnings. */
export class TipActions {
  constructor(private readonly deps: TipActionsDeps) {}

  private async tipFor(rawId: string, claims: AccessClaims, may: 'recipient' | 'parties', forbidden: string) {
    const questionId = isUuid(rawId) ? rawId.toLowerCase() : null;
    if (!questionId) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
    const tip = await this.deps.tips.byQuestion(questionId);
    const roles = may === 'recipient' ? (['recipient'] as const) : (['recipient', 'asker'] as const);
    const found = requireTipAccess(tip && { ...parties(tip), row: tip }, claims.sub, roles, forbidden);
    return found.row;
  }

  /**
   * Spec §7: after answering. The capture itself follows the answer (questions' AnswerPosted); this makes sure it
   * happened and answers with the outcome. It never captures a tip whose question payments has not seen answered.
   */
  async finalize(claims: AccessClaims, rawId: string, metadata: EventMetadata, log: Logger): Promise<ActionOutcome> {
    let tip = await this.tipFor(rawId, claims, 'recipient', PAYMENT_MESSAGES.onlyRecipientFinalizes);
    const questionId = tip.question_id;
    const deadline = Date.now() + this.deps.finalizeWaitMs;
    while (tip.status === 'authorized' && Date.now() < deadline) {
      await sleep(50);
      tip = (await this.deps.tips.byQuestion(questionId)) ?? tip;
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
      const state = await this.deps.settlement.settleNow(questionId, metadata);
      if (state.status === 'captured') return answer({ ...tip, status: 'captured' }, PAYMENT_MESSAGES.captured);
      if (state.status === 'released') throw conflict(PAYMENT_MESSAGES.released);
    } catch (err) {
      if (err instanceof AppError) throw err;
      log.warn({ err, questionId }, 'capture failed for now; the settle job retries it');
    }
    return answer(tip, PAYMENT_MESSAGES.capturing, 202);
  }

  /** Spec §7: before the recipient deletes a pending tipped question; the asker may cancel too. Releases the hold. */
  async cancel(claims: AccessClaims, rawId: string, metadata: EventMetadata, log: Logger): Promise<ActionOutcome> {
    const tip = await this.tipFor(rawId, claims, 'parties', PAYMENT_MESSAGES.onlyPartiesCancel);
    const questionId = tip.question_id;
    await this.deps.commands.handle(
      questionId,
      { type: 'RequestRelease', data: { reason: 'cancelled', now: this.deps.clock() } },
      metadata,
    );
    try {
      const state = await this.deps.settlement.settleNow(questionId, metadata);
      if (state.status === 'released')
        return answer({ ...tip, status: 'released' }, PAYMENT_MESSAGES.cancelled);
    } catch (err) {
      log.warn({ err, questionId }, 'release failed for now; the settle job retries it');
    }
    return answer({ ...tip, status: 'releasing' }, PAYMENT_MESSAGES.cancelled, 202);
  }

  /** The owner's earnings: one ledger entry per captured tip (cents: amount, platform fee, net), newest first. */
  async earnings(
    claims: AccessClaims,
    query: { userId?: string; limit?: string; cursor?: string },
  ): Promise<{ body: EarningsResponse; nextCursor: string | null }> {
    assertOwnUserId(query.userId, claims);
    const limit = query.limit === undefined ? DEFAULT_PAGE_SIZE : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
      throw badRequest(`limit must be between 1 and ${MAX_PAGE_SIZE}`);
    const cursor = query.cursor ? query.cursor : undefined;
    const [page, totals] = await Promise.all([
      this.deps.tips.ledgerPage(claims.sub, limit, cursor),
      this.deps.tips.ledgerTotals(claims.sub),
    ]);
    return {
      body: { totals: { ...totals, currency: page.entries[0]?.currency ?? this.deps.currency }, entries: page.entries },
      nextCursor: page.nextCursor,
    };
  }
}
