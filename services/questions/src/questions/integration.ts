import { QuestionsEvents, type QuestionsEventType } from '@ques/contracts';
import type { IntegrationMapper, RecordedEvent } from '@ques/kit';
import type { QuestionEvent } from './domain/question.js';

const publish = <T extends QuestionsEventType>(type: T, data: unknown) => ({
  type,
  version: QuestionsEvents[type].version,
  // Parsing strips anything not in the public contract (names, e-mails, text) and fails loudly on drift.
  data: QuestionsEvents[type].schema.parse(data),
});

/** The public subset of the question events: ids, times and the tip; never names, e-mails or text. */
export const questionsIntegration: IntegrationMapper = (recorded: RecordedEvent) => {
  const e = { type: recorded.type, data: recorded.data } as QuestionEvent;
  switch (e.type) {
    case 'QuestionAsked':
      return publish('QuestionAsked', {
        questionId: e.data.questionId,
        recipientUserId: e.data.recipient.userId,
        recipientUsername: e.data.recipient.username,
        askerUserId: e.data.asker.userId,
        tip: e.data.tip,
        askedAt: e.data.askedAt,
        answerDeadline: e.data.answerDeadline,
      });
    case 'QuestionCurated':
      return publish('QuestionCurated', {
        questionId: e.data.questionId,
        recipientUserId: e.data.recipient.userId,
        curatedAt: e.data.curatedAt,
      });
    case 'AnswerPosted':
      return publish('AnswerPosted', {
        questionId: e.data.questionId,
        recipientUserId: e.data.recipientUserId,
        askerUserId: e.data.askerUserId,
        answeredAt: e.data.answeredAt,
        tipToCapture: e.data.tipToCapture,
      });
    case 'AnswerEdited':
      return publish('AnswerEdited', { questionId: e.data.questionId, editedAt: e.data.editedAt });
    case 'QuestionVisibilityChanged':
      return publish('QuestionVisibilityChanged', e.data);
    case 'AnswerHiddenByOperator':
      // Others see an answer leaving the public page, as when its owner hides it; the reason stays here.
      return publish('QuestionVisibilityChanged', { questionId: e.data.questionId, displayOnProfile: false, changedAt: e.data.hiddenAt });
    case 'QuestionDeletedByReceiver':
      return publish('QuestionDeletedByReceiver', e.data);
    case 'QuestionWithdrawn':
      return publish('QuestionWithdrawn', e.data);
    case 'AnswerWindowExpired':
      return publish('AnswerWindowExpired', e.data);
    case 'TippedQuestionSubmitted':
    case 'TipCaptureConfirmed':
    case 'TipReleaseConfirmed':
    case 'TippedCheckoutExpired':
      return null;
    default: {
      const unknown: never = e;
      return unknown;
    }
  }
};
