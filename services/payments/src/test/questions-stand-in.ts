import type { EventEnvelope, ScreenAskRequest, SubmitTippedQuestionRequest } from '@ques/contracts';
import { AppError, type EventBus, type Subscription } from '@ques/kit';
import { integrationMessage } from '@ques/kit/testing';
import type { QuestionsClient } from '../tips/questions-client.js';

/** A tip as questions' events carry it. */
interface Tip {
  amount: number;
  currency: string;
  paymentRef: string;
}

/** What questions would show about a tipped question's tip. */
export type ShownTipStatus = 'awaiting_authorization' | 'held' | 'capturing' | 'captured' | 'released';

interface TippedQuestion {
  questionId: string;
  recipientUserId: string;
  askerUserId: string | null;
  tip: Tip;
  /** awaiting_payment until payments says the card is authorized. */
  /** `expired`: the checkout ended unpaid and questions let go of the question (`CheckoutExpired`). */
  lifecycle: 'awaiting_payment' | 'pending' | 'answered' | 'withdrawn' | 'deleted' | 'expired';
  windowExpired: boolean;
  tipStatus: ShownTipStatus;
  /** Ids of the TipAuthorized events received (a question is asked once, however often the event is delivered). */
  authorizations: Set<string>;
  version: number;
}

/**
 * Stands in for the questions service in payments' tests, on both sides of the contract between them:
 * - the one call payments makes (`POST /internal/questions/tipped`, the `QuestionsClient`), recorded — or refused,
 *   the way questions answers a draft it does not accept;
 * - questions' events payments consumes (`AnswerPosted`, `QuestionWithdrawn`, `QuestionDeletedByReceiver`,
 *   `AnswerWindowExpired`), published the way questions' relay would, with the held tip in them as questions decides;
 * - payments' events questions consumes (`TipAuthorized`, `TipCaptured`, `TipRefunded`), read from the bus, so a test
 *   sees what questions would show for the tip.
 */
export class QuestionsStandIn implements QuestionsClient {
  private readonly questions = new Map<string, TippedQuestion>();
  private subscription: Subscription | null = null;
  /** Set to make the next hand-over fail as questions would refuse it (a 4xx in the spec's words). */
  refuseNext: AppError | null = null;
  /** Set to make the next hand-over record the question, then fail as a lost response would (a 503). */
  failAfterRecordingNext = false;
  readonly handedOver: { body: SubmitTippedQuestionRequest; correlationId: string }[] = [];
  /** Set to refuse the next screening as questions would (paused, at the cap, filtered, blocked: issue 16). */
  refuseScreen: AppError | null = null;
  readonly screened: ScreenAskRequest[] = [];

  async screenAsk(body: ScreenAskRequest): Promise<void> {
    this.screened.push(body);
    if (this.refuseScreen) {
      const refusal = this.refuseScreen;
      this.refuseScreen = null;
      throw refusal;
    }
  }

  constructor(
    private readonly bus: EventBus,
    private readonly clock: () => Date,
  ) {}

  async start(): Promise<void> {
    await this.bus.ensureStreams(['payments', 'questions']);
    this.subscription = await this.bus.subscribe({
      durable: 'test--questions-stand-in',
      context: 'payments',
      subjects: [
        'ques.payments.TipAuthorized',
        'ques.payments.TipCaptured',
        'ques.payments.TipRefunded',
        'ques.payments.CheckoutExpired',
      ],
      handler: async (envelope) => this.onPaymentsEvent(envelope),
      onPoison: async (poison) => {
        throw new Error(`the questions stand-in could not handle ${poison.subject}: ${poison.error}`);
      },
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }

  async submitTippedQuestion(body: SubmitTippedQuestionRequest, correlationId: string): Promise<void> {
    if (this.refuseNext) {
      const refusal = this.refuseNext;
      this.refuseNext = null;
      throw refusal;
    }
    this.handedOver.push({ body, correlationId });
    if (this.questions.has(body.questionId)) return;
    const toUserId = (body.questionData as { toUserId?: unknown }).toUserId;
    this.questions.set(body.questionId, {
      questionId: body.questionId,
      recipientUserId: String(toUserId),
      askerUserId: body.askerUserId,
      tip: { amount: Number(body.amountCents), currency: body.currency, paymentRef: body.paymentRef },
      lifecycle: 'awaiting_payment',
      windowExpired: false,
      tipStatus: 'awaiting_authorization',
      authorizations: new Set(),
      version: 1,
    });
    if (this.failAfterRecordingNext) {
      this.failAfterRecordingNext = false;
      throw new AppError('UNAVAILABLE', 'Failed to create checkout session');
    }
  }

  /** Whether payments handed this question over (the checkout started). */
  has(questionId: string): boolean {
    return this.questions.has(questionId);
  }

  /** What questions would show for the tip; undefined for a question never handed over. */
  tipStatus(questionId: string): ShownTipStatus | undefined {
    return this.questions.get(questionId)?.tipStatus;
  }

  /** Whether the question is visible (asked): only once payments said the card is authorized. */
  isAsked(questionId: string): boolean {
    const q = this.questions.get(questionId);
    return !!q && q.lifecycle !== 'awaiting_payment' && q.lifecycle !== 'expired';
  }

  /** Whether questions let go of the question because its checkout ended unpaid (`CheckoutExpired`). */
  isExpired(questionId: string): boolean {
    return this.questions.get(questionId)?.lifecycle === 'expired';
  }

  /** How many distinct TipAuthorized events questions received for the question. */
  authorizations(questionId: string): number {
    return this.questions.get(questionId)?.authorizations.size ?? 0;
  }

  /** The recipient answers: `AnswerPosted`, with the held tip to capture. Refused (409) unless the question is pending. */
  async answer(questionId: string): Promise<void> {
    const q = this.pending(questionId);
    const tipToCapture = q.tipStatus === 'held' ? q.tip : null;
    q.lifecycle = 'answered';
    if (tipToCapture) q.tipStatus = 'capturing';
    await this.publish(q, 'AnswerPosted', {
      questionId,
      recipientUserId: q.recipientUserId,
      askerUserId: q.askerUserId,
      answeredAt: this.clock().toISOString(),
      tipToCapture,
    });
  }

  /** The asker withdraws a pending question: `QuestionWithdrawn`, releasing a held tip. */
  async withdraw(questionId: string): Promise<void> {
    const q = this.pending(questionId);
    q.lifecycle = 'withdrawn';
    await this.publish(q, 'QuestionWithdrawn', {
      questionId,
      withdrawnAt: this.clock().toISOString(),
      tipToRelease: this.release(q),
    });
  }

  /** The recipient deletes the question: `QuestionDeletedByReceiver`, releasing a held tip. */
  async deleteByReceiver(questionId: string): Promise<void> {
    const q = this.known(questionId);
    if (q.lifecycle === 'deleted' || q.lifecycle === 'withdrawn')
      throw new AppError('CONFLICT', 'This question was deleted or withdrawn.');
    q.lifecycle = 'deleted';
    await this.publish(q, 'QuestionDeletedByReceiver', {
      questionId,
      deletedAt: this.clock().toISOString(),
      tipToRelease: this.release(q),
    });
  }

  /** The 5-day deadline passes unanswered: `AnswerWindowExpired`, releasing the held tip. A no-op otherwise. */
  async expire(questionId: string): Promise<boolean> {
    const q = this.known(questionId);
    if (q.lifecycle !== 'pending' || q.windowExpired || q.tipStatus !== 'held') return false;
    q.windowExpired = true;
    const now = this.clock().toISOString();
    await this.publish(q, 'AnswerWindowExpired', {
      questionId,
      deadline: now,
      expiredAt: now,
      tipToRelease: this.release(q)!,
    });
    return true;
  }

  private release(q: TippedQuestion): Tip | null {
    if (q.tipStatus !== 'held') return null;
    q.tipStatus = 'released';
    return q.tip;
  }

  private known(questionId: string): TippedQuestion {
    const q = this.questions.get(questionId);
    if (!q || q.lifecycle === 'awaiting_payment') throw new AppError('NOT_FOUND', 'Question not found');
    return q;
  }

  private pending(questionId: string): TippedQuestion {
    const q = this.known(questionId);
    if (q.lifecycle !== 'pending') throw new AppError('CONFLICT', `This question is ${q.lifecycle}.`);
    return q;
  }

  private async publish(q: TippedQuestion, type: string, data: unknown): Promise<void> {
    q.version += 1;
    const message = integrationMessage({
      context: 'questions',
      type,
      data,
      streamId: `question-${q.questionId}`,
      streamVersion: q.version,
      occurredAt: this.clock(),
    });
    await this.bus.publish([message]);
  }

  private async onPaymentsEvent(envelope: EventEnvelope): Promise<void> {
    const data = envelope.data as { questionId: string; paymentRef: string };
    const q = this.questions.get(data.questionId);
    if (!q) throw new Error(`${envelope.type} for a question payments never handed over: ${data.questionId}`);
    if (data.paymentRef !== q.tip.paymentRef)
      throw new Error(`${envelope.type} for another payment of ${data.questionId}`);
    switch (envelope.type) {
      case 'TipAuthorized':
        q.authorizations.add(envelope.id);
        if (q.lifecycle === 'awaiting_payment') {
          q.lifecycle = 'pending';
          q.tipStatus = 'held';
        }
        return;
      case 'TipCaptured':
        q.tipStatus = 'captured';
        return;
      case 'TipRefunded':
        q.tipStatus = 'released';
        return;
      case 'CheckoutExpired':
        if (q.lifecycle === 'awaiting_payment') {
          q.lifecycle = 'expired';
          q.tipStatus = 'released';
        }
        return;
      default:
        return;
    }
  }
}
