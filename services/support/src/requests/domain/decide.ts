import {
  SUPPORT_CATEGORIES,
  SUPPORT_LIMITS,
  SUPPORT_REQUIRED_FIELDS,
  type SupportCategory,
} from '@ques/contracts';
import { badRequest, conflict, notFound, decider, unreachable } from '@ques/kit/domain';
import {
  evolveSupportRequest,
  initialSupportRequestState,
  type Requester,
  type SupportRequestEvent,
  type SupportRequestState,
} from './support-request.js';

export type SupportRequestCommand =
  | {
      type: 'RequestSupport';
      data: {
        requestId: string;
        category: SupportCategory;
        title: string;
        description: string;
        requester: Requester | null;
        now: Date;
      };
    }
  | { type: 'RecordInboxMail'; data: { to: string; messageId: string; now: Date } }
  | { type: 'AnswerRequest'; data: { note: string; operator: string; now: Date } }
  | { type: 'RecordAnswerMail'; data: { messageId: string; now: Date } };

/** The HTTP schema checks the same rules; the aggregate keeps them whatever the caller. */
function text(value: string, max: number, label: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(SUPPORT_REQUIRED_FIELDS);
  if (trimmed.length > max) throw badRequest(`${label} must be at most ${max} characters`);
  return trimmed;
}

export function decideSupportRequest(
  command: SupportRequestCommand,
  state: SupportRequestState,
): SupportRequestEvent[] {
  switch (command.type) {
    case 'RequestSupport': {
      if (state.status !== 'none') throw conflict('This support request was already sent.');
      const { requestId, category, requester, now } = command.data;
      if (!SUPPORT_CATEGORIES.includes(category)) throw badRequest('Please choose a support category.');
      return [
        {
          type: 'SupportRequested',
          data: {
            requestId,
            category,
            title: text(command.data.title, SUPPORT_LIMITS.title, 'Title'),
            description: text(command.data.description, SUPPORT_LIMITS.description, 'Description'),
            userId: requester?.userId ?? null,
            username: requester?.username ?? null,
            requestedAt: now.toISOString(),
          },
        },
      ];
    }
    case 'RecordInboxMail': {
      if (state.status !== 'requested') throw notFound('Support request not found');
      // A retried mail job must not record the delivery twice.
      if (state.mailedAt) return [];
      const { to, messageId, now } = command.data;
      return [
        {
          type: 'SupportInboxMailed',
          data: { requestId: state.requestId, to, messageId, mailedAt: now.toISOString() },
        },
      ];
    }
    case 'AnswerRequest': {
      if (state.status !== 'requested') throw notFound('Not found');
      const note = command.data.note.trim();
      if (!note) throw badRequest('Please write a note.');
      // Answering again with the same note (a retried click) changes nothing; another note is a follow-up answer.
      if (state.answer && state.answer.note === note) return [];
      return [
        {
          type: 'SupportRequestAnswered',
          data: {
            requestId: state.requestId,
            userId: state.requester?.userId ?? null,
            note,
            operator: command.data.operator,
            answeredAt: command.data.now.toISOString(),
          },
        },
      ];
    }
    case 'RecordAnswerMail': {
      if (state.status !== 'requested' || !state.answer) throw notFound('Not found');
      if (state.answer.mailedAt) return [];
      return [
        {
          type: 'SupportAnswerMailed',
          data: { requestId: state.requestId, messageId: command.data.messageId, mailedAt: command.data.now.toISOString() },
        },
      ];
    }
    default:
      return unreachable(command);
  }
}

export const supportRequestDecider = decider(initialSupportRequestState, evolveSupportRequest, decideSupportRequest);
