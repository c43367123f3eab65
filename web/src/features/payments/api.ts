import type {
  AccountStatusResponse,
  ConnectResponse,
  EarningsResponse,
  SaveTipOptionsResponse,
  TipOption,
  TipOptionsResponse,
} from '@ques/contracts/core';
import { api, ApiError } from '../../lib/api';

/** What the page needs of `GET /api/payments/account-status` (spec §3/§4: only "completed" lets tipping on). */
export type AccountStatus = Pick<AccountStatusResponse, 'stripeAccountId' | 'stripeAccountStatus'> &
  Partial<AccountStatusResponse>;

export async function fetchAccountStatus(userId: string, signal?: AbortSignal): Promise<AccountStatus> {
  const data = await api.json<Partial<AccountStatusResponse>>('/api/payments/account-status', { query: { userId }, signal });
  return { ...data, stripeAccountId: data.stripeAccountId ?? null, stripeAccountStatus: data.stripeAccountStatus ?? null };
}

/** Throws on failure: the caller falls back to the defaults with tipping off (spec §4). */
export async function fetchOwnTipOptions(userId: string, signal?: AbortSignal): Promise<TipOptionsResponse> {
  const data = await api.json<Partial<TipOptionsResponse>>('/api/payments/tipOptions', { query: { userId }, signal });
  if (!Array.isArray(data.tipOptions)) throw new Error('tip options missing');
  return { tipOptions: data.tipOptions, tippingEnabled: data.tippingEnabled === true };
}

export const saveTipOptions = (userId: string, tipOptions: TipOption[], tippingEnabled: boolean) =>
  api.json<Partial<SaveTipOptionsResponse>>('/api/payments/tipOptions', {
    method: 'PUT',
    body: { userId, tipOptions, tippingEnabled },
  });

export { saveTipping } from '../../lib/owner-calls';

/** `POST /api/payments/connect`: the provider's onboarding page to send the owner to. */
export const connectPayoutAccount = (userId: string, country: string) =>
  api.json<Partial<ConnectResponse>>('/api/payments/connect', { method: 'POST', body: { userId, country } });

/** Captured tips (amount, platform fee, net). Null when the server has no earnings endpoint (404). */
export async function fetchEarnings(signal?: AbortSignal): Promise<EarningsResponse | null> {
  try {
    return await api.json<EarningsResponse>('/api/payments/earnings', { signal });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
