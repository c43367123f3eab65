import { SupportEvents, type SupportRequestedV1 } from '@ques/contracts';
import type { IntegrationMapper, RecordedEvent } from '@ques/kit';
import type { SupportRequestEvent } from './domain/support-request.js';

/** The public subset of support's events: who and what kind, never the free text; mail delivery stays private. */
export const supportIntegration: IntegrationMapper = (recorded: RecordedEvent) => {
  const e = { type: recorded.type, data: recorded.data } as SupportRequestEvent;
  switch (e.type) {
    case 'SupportRequested': {
      const data: SupportRequestedV1 = {
        requestId: e.data.requestId,
        category: e.data.category,
        userId: e.data.userId,
        requestedAt: e.data.requestedAt,
      };
      return { type: e.type, version: SupportEvents.SupportRequested.version, data };
    }
    case 'SupportInboxMailed':
    case 'SupportRequestAnswered':
    case 'SupportAnswerMailed':
      return null;
    default: {
      const unknown: never = e;
      return unknown;
    }
  }
};
