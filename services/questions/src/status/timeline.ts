import type { StatusStep } from '@ques/contracts';
import type { QuestionEvent } from '../questions/domain/question.js';

/** One step of a status page's timeline and when it happened (ISO). */
export interface TimelineStep {
  step: StatusStep;
  at: string;
}

/**
 * What happened to a question, oldest first, read from its own events (issue 28): each event carries the time it
 * happened, so the timeline needs no column of its own. A tipped question is asked when submitted at checkout and
 * held when the card was authorized; a free one is asked once. Edits, visibility and curation are not steps.
 */
export function statusTimeline(events: readonly Pick<QuestionEvent, 'type' | 'data'>[]): TimelineStep[] {
  const steps: TimelineStep[] = [];
  const add = (step: StatusStep, at: string) => steps.push({ step, at });
  for (const event of events as QuestionEvent[]) {
    switch (event.type) {
      case 'TippedQuestionSubmitted':
        add('asked', event.data.submittedAt);
        break;
      case 'QuestionAsked':
        if (!event.data.tip) add('asked', event.data.askedAt);
        else {
          // Events of questions asked before checkout handed them over carry no submission: asked and held at once.
          if (!steps.some((s) => s.step === 'asked')) add('asked', event.data.askedAt);
          add('held', event.data.askedAt);
        }
        break;
      case 'AnswerPosted':
        add('answered', event.data.answeredAt);
        break;
      case 'TipCaptureConfirmed':
        add('charged', event.data.capturedAt);
        break;
      // Ending it releases a held tip by that same decision (payments' confirmation then changes nothing).
      case 'QuestionWithdrawn':
        add('withdrawn', event.data.withdrawnAt);
        if (event.data.tipToRelease) add('released', event.data.withdrawnAt);
        break;
      case 'QuestionDeletedByReceiver':
        add('deleted', event.data.deletedAt);
        if (event.data.tipToRelease) add('released', event.data.deletedAt);
        break;
      case 'AnswerWindowExpired':
        add('expired', event.data.expiredAt);
        add('released', event.data.expiredAt);
        break;
      case 'TipReleaseConfirmed':
        // A release of payments' own (the provider cancelled the hold).
        if (!steps.some((s) => s.step === 'released')) add('released', event.data.releasedAt);
        break;
      case 'QuestionCurated':
      case 'AnswerEdited':
      case 'QuestionVisibilityChanged':
      case 'AnswerHiddenByOperator':
      case 'TippedCheckoutExpired':
        break;
      default: {
        // A new event type must be made a step or listed above (compile time); at run time it is no step.
        const unlisted: never = event;
        void unlisted;
      }
    }
  }
  return steps;
}
