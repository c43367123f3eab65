import { z } from 'zod';
import { STATUS_STEPS } from './core/asker-trust.js';

/*
 * Asker trust (issue 14): the private status page of one question, reached by its unguessable token
 * (`/q/{token}`), without an account.
 */

export * from './core/asker-trust.js';

const ZTime = z.iso.datetime({ offset: true });

export const ZStatusTokenParams = z.object({ token: z.string().max(200) });

/**
 * A step of a question's life on its status page: asked, the tip held (card authorized), answered, the tip charged;
 * or withdrawn, deleted by the owner, unanswered in time, and the hold released.
 */
export const ZStatusStep = z.enum(STATUS_STEPS);

/** What the status page shows: only this question, only to whoever holds its link. */
export const ZQuestionStatusPage = z.strictObject({
  questionId: z.string(),
  question: z.string(),
  detail: z.string(),
  /** The public wording when the owner redacted it before publishing (issue 14); null otherwise. */
  publicQuestion: z.string().nullable(),
  publicDetail: z.string().nullable(),
  /** The owner it was asked to, with their avatar and brand colours (the page is in their colours; issue 28). */
  toName: z.string(),
  toUsername: z.string(),
  toAvatarUrl: z.string(),
  brandColorMain: z.string(),
  brandColorLight: z.string(),
  /** `Confirming`: the browser is back from checkout and the provider's authorization is not recorded yet. */
  status: z.enum(['Confirming', 'Pending', 'Answered', 'Withdrawn', 'Released']),
  askedAt: ZTime,
  /** The answer, also when the owner keeps it off the public page. */
  answer: z.string().nullable(),
  answeredAt: ZTime.nullable(),
  /** Shown on the owner's public page now. */
  isPublic: z.boolean(),
  /** The public answer page (`/ask/{username}/question/{id}/{slug}`) while it is public; null otherwise. */
  answerPath: z.string().nullable(),
  /** What happened so far, oldest first, each with its time (issue 28); the page adds the steps still to come. */
  timeline: z.array(z.strictObject({ step: ZStatusStep, at: ZTime })),
  /** The asker chose "Private — only I see the answer". */
  isPrivate: z.boolean(),
  /** null without a tip. `state`: held on the card, charged (answered), or released (never charged). */
  tip: z
    .strictObject({
      amountCents: z.number().int().nonnegative(),
      currency: z.string(),
      state: z.enum(['held', 'charged', 'released']),
      /** When the hold is released automatically if still unanswered. */
      releaseAt: ZTime.nullable(),
      chargedAt: ZTime.nullable(),
    })
    .nullable(),
  /** The guest's address is confirmed (the link was opened): answer e-mails go to it. */
  emailConfirmed: z.boolean(),
});
export type QuestionStatusPage = z.infer<typeof ZQuestionStatusPage>;

/** "Already answered?" (issue 14): up to 3 of an owner's public answers matching a title being typed. */
export const ZSimilarAnswersQuery = z.object({ q: z.string().max(300).default('') });
export const ZSimilarAnswer = z.strictObject({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
  toUsername: z.string(),
  answeredAt: ZTime.nullable(),
});
export const ZSimilarAnswers = z.array(ZSimilarAnswer).max(3);
export type SimilarAnswer = z.infer<typeof ZSimilarAnswer>;

/** `POST /api/questions/:id/status-link`: a signed-in asker's way to the same page. */
export const ZStatusLinkResponse = z.strictObject({ token: z.string(), url: z.string() });
export type StatusLinkResponse = z.infer<typeof ZStatusLinkResponse>;
