import { api, ApiError } from '../../lib/api';
import type { TipOption } from '../../lib/api';

/** `GET /api/payments/account-status`: the owner's payout (Stripe Connect) account. */
export interface AccountStatus {
  stripeAccountId: string | null;
  /** Spec §3/§4: only "completed" lets tipping be switched on. */
  stripeAccountStatus: string | null;
  chargesEnabled?: boolean;
  payoutsEnabled?: boolean;
  detailsSubmitted?: boolean;
}

export interface OwnTipOptions {
  tipOptions: TipOption[];
  tippingEnabled: boolean;
}

/** Amounts in cents. */
export interface Earnings {
  totals: { count: number; amount: number; applicationFee: number; net: number; currency: string };
  entries: { questionId: string; amount: number; applicationFee: number; net: number; currency: string; capturedAt: string }[];
}

export async function fetchAccountStatus(userId: string, signal?: AbortSignal): Promise<AccountStatus> {
  const data = await api.json<Partial<AccountStatus>>('/api/payments/account-status', { query: { userId }, signal });
  return { ...data, stripeAccountId: data.stripeAccountId ?? null, stripeAccountStatus: data.stripeAccountStatus ?? null };
}

/** Throws on failure: the caller falls back to the defaults with tipping off (spec §4). */
export async function fetchOwnTipOptions(userId: string, signal?: AbortSignal): Promise<OwnTipOptions> {
  const data = await api.json<Partial<OwnTipOptions>>('/api/payments/tipOptions', { query: { userId }, signal });
  if (!Array.isArray(data.tipOptions)) throw new Error('tip options missing');
  return { tipOptions: data.tipOptions, tippingEnabled: data.tippingEnabled === true };
}

export const saveTipOptions = (userId: string, tipOptions: TipOption[], tippingEnabled: boolean) =>
  api.json<Partial<OwnTipOptions> & { message?: string }>('/api/payments/tipOptions', {
    method: 'PUT',
    body: { userId, tipOptions, tippingEnabled },
  });

/** `POST /api/payments/connect`: the provider's onboarding page to send the owner to. */
export const connectPayoutAccount = (userId: string, country: string) =>
  api.json<{ url?: string; stripeAccountId?: string }>('/api/payments/connect', { method: 'POST', body: { userId, country } });

/** Captured tips (amount, platform fee, net). Null when the server has no earnings endpoint (404). */
export async function fetchEarnings(signal?: AbortSignal): Promise<Earnings | null> {
  try {
    return await api.json<Earnings>('/api/payments/earnings', { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
