import { NEXT_CURSOR_HEADER, type PaymentActionResponse, type Question, type StatusLinkResponse } from '@ques/contracts/core';
import { api } from '../../lib/api';
import type { Page } from '../../lib/use-paged-list';

/** Which list: received (inbox), asked by me, curated by me. */
export type ListRole = 'receiver' | 'asker' | 'curated';

export async function fetchQuestions(role: ListRole, cursor?: string | null, signal?: AbortSignal): Promise<Page<Question>> {
  const res = await api.request('/api/questions', { query: { role, cursor }, signal });
  if (!res.ok) throw new Error('Failed to fetch questions');
  const data = (await res.json()) as unknown;
  return {
    items: Array.isArray(data) ? (data as Question[]) : [],
    nextCursor: res.headers.get(NEXT_CURSOR_HEADER) || null,
  };
}

const path = (id: string) => `/api/questions/${encodeURIComponent(id)}`;

export interface AnswerPayload {
  answer: string;
  displayOnProfile: boolean;
  replierName: string;
  tags: string[];
  /** Redaction (issue 14): the question's public wording, when the owner edited it. */
  publicQuestion?: string;
  publicDetail?: string;
}

/** Spec §7 `PUT /api/questions/{id}/answer`. */
export const postAnswer = (id: string, payload: AnswerPayload) =>
  api.json<Partial<Question>>(`${path(id)}/answer`, { method: 'PUT', body: payload, idempotent: true });

/** Editing an existing answer: no e-mail goes out again (`skipNotify`). */
export const editAnswer = (id: string, answer: string, tags: string[]) =>
  api.json<Partial<Question>>(`${path(id)}/answer`, { method: 'PUT', body: { answer, tags, skipNotify: true }, idempotent: true });

export const setDisplayOnProfile = (id: string, displayOnProfile: boolean) =>
  api.json<unknown>(path(id), { method: 'PATCH', body: { displayOnProfile } });

/** The recipient's delete: hidden from them for good (`deletedByReceiver`). */
export const deleteByReceiver = (id: string) =>
  api.json<unknown>(path(id), { method: 'PATCH', body: { deletedByReceiver: true } });

/** The asker withdraws a pending question. */
export const withdrawQuestion = (id: string) => api.json<unknown>(path(id), { method: 'DELETE' });

/** After answering a tipped question: capture the held tip. */
export const finalizePayment = (id: string) =>
  api.json<Partial<PaymentActionResponse>>(`/api/payments/process/${encodeURIComponent(id)}/finalize-payment`, { method: 'POST' });

/** Before deleting or withdrawing a pending tipped question: release the hold on the card. */
export const cancelPayment = (id: string) =>
  api.json<Partial<PaymentActionResponse>>(`/api/payments/process/${encodeURIComponent(id)}/cancel-payment`, { method: 'POST' });

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
  api.json<Question>('/api/questions', { method: 'POST', body: payload, idempotent: true });

/** Issue 16: block whoever asked this question (account, e-mail, device); lifted in Account Settings. */
export const blockAsker = (id: string) => api.json<{ id: string; label: string }>(`${path(id)}/block`, { method: 'POST' });

/** Questions Asked → the question's private status page (issue 14): a fresh link for the signed-in asker. */
export const createStatusLink = (id: string) =>
  api.json<StatusLinkResponse>(`/api/questions/${encodeURIComponent(id)}/status-link`, { method: 'POST' });
