import { api } from '../../lib/api';
import type { Question, TipOption, TipOptionsResponse } from '../../lib/api';

/** Spec §3 defaults; also what a failed load falls back to, with tipping off (spec §4). */
export const DEFAULT_TIP_OPTIONS: TipOption[] = [
  { id: 'tip-0', value: '$0', removable: false },
  { id: 'tip-5', value: '$5', removable: true },
  { id: 'tip-25', value: '$25', removable: true },
  { id: 'tip-50', value: '$50', removable: true },
  { id: 'tip-custom', value: 'Custom', removable: true },
];

export async function fetchTipOptions(userId: string): Promise<TipOptionsResponse> {
  try {
    const data = await api.json<Partial<TipOptionsResponse>>('/api/payments/tipOptions', { query: { userId } });
    return {
      tipOptions: Array.isArray(data.tipOptions) && data.tipOptions.length > 0 ? data.tipOptions : DEFAULT_TIP_OPTIONS,
      tippingEnabled: data.tippingEnabled === true,
    };
  } catch (err) {
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
}

export const postQuestion = (payload: QuestionPayload) =>
  api.json<Question>('/api/questions', { method: 'POST', body: payload });

export interface CheckoutSessionResponse {
  sessionId?: string;
  paymentIntentId?: string;
  url?: string;
  message?: string;
}

export const createCheckoutSession = (donationAmount: number, userId: string, questionData: QuestionPayload) =>
  api.json<CheckoutSessionResponse>('/api/checkout/create-checkout-session', {
    method: 'POST',
    body: { donationAmount, userId, questionData },
  });
