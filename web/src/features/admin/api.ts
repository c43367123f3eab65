import { api } from '../../lib/api';
import type { Question } from '../../lib/api';

/** Where a tip stands (the questions API's `tipStatus`). */
export type TipStatus = 'none' | 'awaiting_authorization' | 'held' | 'capturing' | 'captured' | 'released';

/**
 * A question as the API returns it to its recipient or asker (`Question` of @ques/contracts questions.ts): the spec §3
 * fields plus the tip's status and the answer deadline.
 */
export interface AdminQuestion extends Question {
  id?: string;
  fromUsername?: string;
  askedName?: string;
  askedEmail?: string;
  yourName?: string;
  yourEmail?: string;
  toUserId?: string;
  toUserEmail?: string;
  replierName?: string;
  /** Dollars (spec §3). */
  tip?: number;
  /** Cents. */
  tipAmount?: number;
  currency?: string | null;
  tipStatus?: TipStatus;
  /** When an unanswered tipped question's tip is released; null without a tip. */
  answerDeadline?: string | null;
  /** The 5 days passed unanswered: the tip was released (the question can still be answered, for free). */
  answerWindowExpired?: boolean;
}

/** Which list: received (inbox), asked by me, curated by me. */
export type ListRole = 'receiver' | 'asker' | 'curated';

export interface QuestionPage {
  items: AdminQuestion[];
  nextCursor: string | null;
}

export async function fetchQuestions(role: ListRole, cursor?: string | null, signal?: AbortSignal): Promise<QuestionPage> {
  const res = await api.request('/api/questions', { query: { role, cursor }, signal });
  if (!res.ok) throw new Error('Failed to fetch questions');
  const data = (await res.json()) as unknown;
  return {
    items: Array.isArray(data) ? (data as AdminQuestion[]) : [],
    nextCursor: res.headers.get('x-next-cursor') || null,
  };
}

const path = (id: string) => `/api/questions/${encodeURIComponent(id)}`;

export interface AnswerPayload {
  answer: string;
  displayOnProfile: boolean;
  replierName: string;
  tags: string[];
}

/** Spec §7 `PUT /api/questions/{id}/answer`. */
export const postAnswer = (id: string, payload: AnswerPayload) =>
  api.json<AdminQuestion>(`${path(id)}/answer`, { method: 'PUT', body: payload });

/** Editing an existing answer: no e-mail goes out again (`skipNotify`). */
export const editAnswer = (id: string, answer: string, tags: string[]) =>
  api.json<AdminQuestion>(`${path(id)}/answer`, { method: 'PUT', body: { answer, tags, skipNotify: true } });

export const setDisplayOnProfile = (id: string, displayOnProfile: boolean) =>
  api.json<unknown>(path(id), { method: 'PATCH', body: { displayOnProfile } });

/** The recipient's delete: hidden from them for good (`deletedByReceiver`). */
export const deleteByReceiver = (id: string) =>
  api.json<unknown>(path(id), { method: 'PATCH', body: { deletedByReceiver: true } });

/** The asker withdraws a pending question. */
export const withdrawQuestion = (id: string) => api.json<unknown>(path(id), { method: 'DELETE' });

export interface PaymentActionResult {
  message?: string;
  status?: 'checkout' | 'held' | 'capturing' | 'captured' | 'releasing' | 'released';
}

/** After answering a tipped question: capture the held tip. */
export const finalizePayment = (id: string) =>
  api.json<PaymentActionResult>(`/api/payments/process/${encodeURIComponent(id)}/finalize-payment`, { method: 'POST' });

/** Before deleting or withdrawing a pending tipped question: release the hold on the card. */
export const cancelPayment = (id: string) =>
  api.json<PaymentActionResult>(`/api/payments/process/${encodeURIComponent(id)}/cancel-payment`, { method: 'POST' });

/** Spec §7 curated payload. */
export interface CuratePayload {
  question: string;
  detail: string;
  answer: string;
  source: string;
  displayOnProfile: boolean;
  isCurated: true;
  tip: 0;
  yourName: string;
  yourEmail: string;
  toUsername: string;
  fromUsername: string;
  tags: string[];
}

export const createCurated = (payload: CuratePayload) =>
  api.json<AdminQuestion>('/api/questions', { method: 'POST', body: payload });
