import { z } from 'zod';

// ---- integration events (ques.questions.*) ----

const ZTip = z.object({ amount: z.number().int().positive(), currency: z.string(), paymentRef: z.string() });
export type TipData = z.infer<typeof ZTip>;
const iso = z.iso.datetime({ offset: true });

/** Public subset: ids, times and money; no names, e-mails or text (other services do not need them). */
export const QuestionsEvents = {
  QuestionAsked: {
    version: 1,
    schema: z.object({
      questionId: z.uuid(),
      recipientUserId: z.uuid(),
      recipientUsername: z.string(),
      askerUserId: z.uuid().nullable(),
      /** Present when payments authorized a tip: it is held on the card until the answer or the deadline. */
      tip: ZTip.nullable(),
      askedAt: iso,
      answerDeadline: iso.nullable(),
    }),
  },
  QuestionCurated: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), recipientUserId: z.uuid(), curatedAt: iso }),
  },
  AnswerPosted: {
    version: 1,
    schema: z.object({
      questionId: z.uuid(),
      recipientUserId: z.uuid(),
      askerUserId: z.uuid().nullable(),
      answeredAt: iso,
      /** The held tip payments must capture now; null when there is none (free, or already released). */
      tipToCapture: ZTip.nullable(),
    }),
  },
  AnswerEdited: { version: 1, schema: z.object({ questionId: z.uuid(), editedAt: iso }) },
  QuestionVisibilityChanged: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), displayOnProfile: z.boolean(), changedAt: iso }),
  },
  QuestionDeletedByReceiver: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), deletedAt: iso, tipToRelease: ZTip.nullable() }),
  },
  QuestionWithdrawn: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), withdrawnAt: iso, tipToRelease: ZTip.nullable() }),
  },
  AnswerWindowExpired: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), deadline: iso, expiredAt: iso, tipToRelease: ZTip }),
  },
} as const;
export type QuestionsEventType = keyof typeof QuestionsEvents;

/**
 * ques.payments.* events the questions service consumes. Payments publishes these shapes (amounts in cents).
 * `TipAuthorized` turns a question submitted through checkout into a pending question.
 */
export const PaymentsEventsForQuestions = {
  TipAuthorized: {
    version: 1,
    schema: z.object({
      questionId: z.uuid(),
      paymentRef: z.string().min(1),
      amount: z.number().int().positive(),
      currency: z.string(),
      authorizedAt: iso,
    }),
  },
  TipCaptured: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), paymentRef: z.string().min(1), capturedAt: iso }),
  },
  TipRefunded: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), paymentRef: z.string().min(1), refundedAt: iso }),
  },
  /**
   * The checkout ended unpaid (abandoned on the provider's page, expired, or cancelled before the card went through):
   * the question that waited for it, invisible, goes — and nothing is held. Also published for a checkout payments
   * never recorded (its own start failed), so a question handed over for it does not wait forever.
   */
  CheckoutExpired: {
    version: 1,
    schema: z.object({ questionId: z.uuid(), paymentRef: z.string().min(1), expiredAt: iso }),
  },
} as const;
