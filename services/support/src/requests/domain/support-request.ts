/** The support-request aggregate: events, state and evolve. Pure — no I/O (lint-enforced). */
import type { SupportCategory } from '@ques/contracts';

/** Who sent a request, from their access token; null for a guest. */
export interface Requester {
  userId: string;
  username: string;
}

/**
 * Fields of `SupportRequested` sealed with the sender's personal-data key (crypto-shredding, see the kit's
 * PersonalDataVault): when the person is deleted they read as `erased-<userId>`.
 */
export const SUPPORT_PERSONAL_FIELDS = {
  SupportRequested: ['title', 'description', 'username'],
  SupportRequestAnswered: ['note'],
  AbuseReported: ['note', 'username'],
} as const;

export type SupportRequestEvent =
  | {
      type: 'SupportRequested';
      data: {
        requestId: string;
        category: SupportCategory;
        title: string;
        description: string;
        /** The signed-in sender, or null for a guest. */
        userId: string | null;
        username: string | null;
        requestedAt: string;
      };
    }
  | {
      /** The request reached the support inbox (private to the service: not published). */
      type: 'SupportInboxMailed';
      data: { requestId: string; to: string; messageId: string; mailedAt: string };
    }
  | {
      /** An operator answered it (issue 18); the note is mailed to a signed-in requester's verified address. */
      type: 'SupportRequestAnswered';
      data: { requestId: string; userId: string | null; note: string; operator: string; answeredAt: string };
    }
  | {
      /** The answer reached the requester (private). */
      type: 'SupportAnswerMailed';
      data: { requestId: string; messageId: string; mailedAt: string };
    };

export type SupportRequestState =
  | { status: 'none' }
  | {
      status: 'requested';
      requestId: string;
      category: SupportCategory;
      title: string;
      description: string;
      requester: Requester | null;
      requestedAt: string;
      mailedAt: string | null;
      answer: { note: string; operator: string; answeredAt: string; mailedAt: string | null } | null;
    };

export const initialSupportRequestState = (): SupportRequestState => ({ status: 'none' });

export const supportRequestStreamId = (requestId: string) => `support-request-${requestId}`;

export function evolveSupportRequest(
  state: SupportRequestState,
  event: SupportRequestEvent,
): SupportRequestState {
  switch (event.type) {
    case 'SupportRequested':
      return {
        status: 'requested',
        requestId: event.data.requestId,
        category: event.data.category,
        title: event.data.title,
        description: event.data.description,
        requester: event.data.userId
          ? { userId: event.data.userId, username: event.data.username ?? '' }
          : null,
        requestedAt: event.data.requestedAt,
        mailedAt: null,
        answer: null,
      };
    case 'SupportInboxMailed':
      if (state.status !== 'requested') return state;
      return { ...state, mailedAt: event.data.mailedAt };
    case 'SupportRequestAnswered':
      if (state.status !== 'requested') return state;
      return {
        ...state,
        answer: { note: event.data.note, operator: event.data.operator, answeredAt: event.data.answeredAt, mailedAt: null },
      };
    case 'SupportAnswerMailed':
      if (state.status !== 'requested' || !state.answer) return state;
      return { ...state, answer: { ...state.answer, mailedAt: event.data.mailedAt } };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
