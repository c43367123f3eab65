import {
  DEFAULT_TIP_OPTIONS,
  type CheckoutSessionResponse,
  type Question,
  type SimilarAnswer,
  type TipOptionsResponse,
} from '@ques/contracts/core';
import { api } from '../../lib/api';
import { deviceHeaders } from '../../lib/device';

/** The owner's tip options; a failed load falls back to the spec §3 defaults with tipping off (spec §4). */
export async function fetchTipOptions(userId: string, signal?: AbortSignal): Promise<TipOptionsResponse> {
  try {
    const data = await api.json<Partial<TipOptionsResponse>>('/api/payments/tipOptions', { query: { userId }, signal });
    return {
      tipOptions: Array.isArray(data.tipOptions) && data.tipOptions.length > 0 ? data.tipOptions : DEFAULT_TIP_OPTIONS,
      tippingEnabled: data.tippingEnabled === true,
    };
  } catch (err) {
    if (signal?.aborted) throw err;
    console.warn('Tip options failed to load; tipping is off', err);
    return { tipOptions: DEFAULT_TIP_OPTIONS, tippingEnabled: false };
  }
}

/** Spec §7 question payload. */
export interface QuestionPayload {
  question: string;
  detail: string;
  tip: number;
  isCurated: false;
  toUsername: string;
  recipientName: string;
  toUserId: string;
  fromUsername: string;
  askedName: string;
  askedEmail: string;
  yourName: string;
  yourEmail: string;
  toUserEmail?: string | undefined;
  /** A guest ticked the terms box (the server checks it again; signed-in askers agreed when signing up). */
  agreedToTerms?: boolean;
  /** The asker's consent (issue 14): "Private — only I see the answer". */
  isPrivate?: boolean;
  /** The status link the browser made (issue 28): the page after posting or paying is `/q/{statusToken}`. */
  statusToken?: string;
}

export const postQuestion = (payload: QuestionPayload) =>
  api.json<Question>('/api/questions', { method: 'POST', body: payload, headers: deviceHeaders(), idempotent: true });

export const createCheckoutSession = (donationAmount: number, userId: string, questionData: QuestionPayload) =>
  api.json<Partial<CheckoutSessionResponse>>('/api/checkout/create-checkout-session', {
    method: 'POST',
    body: { donationAmount, userId, questionData },
    headers: deviceHeaders(),
    idempotent: true,
  });

/** "Already answered?" (issue 14): up to 3 of the owner's public answers matching the title being typed. */
export const fetchSimilarAnswers = (username: string, q: string, signal?: AbortSignal) =>
  api.json<SimilarAnswer[]>(`/api/asking/similar/${encodeURIComponent(username)}`, {
    query: { q },
    anonymous: true,
    signal,
  });
