import type { QuestionStatusPage } from '@ques/contracts/core';
import { api } from '../../lib/api';

const base = (token: string) => `/api/question-status/${encodeURIComponent(token)}`;

/** Opening the page: confirms a guest's address (when it is their mailed link) and returns the page (issue 14). */
export const openStatusPage = (token: string, signal?: AbortSignal) =>
  api.json<QuestionStatusPage>(`${base(token)}/confirm`, { method: 'POST', anonymous: true, signal });

/** The page again, changing nothing: while a payment is being confirmed (issue 28). */
export const readStatusPage = (token: string, signal?: AbortSignal) =>
  api.json<QuestionStatusPage>(base(token), { anonymous: true, signal });

export const withdrawByStatusLink = (token: string) =>
  api.json<QuestionStatusPage>(`${base(token)}/withdraw`, { method: 'POST', anonymous: true });
