import type { ClaimMethod, ProfileClaim } from '@ques/contracts/core';
import { api } from '../../lib/api';
import { fetchPublicProfile } from '../../lib/public-profile';

export { fetchPublicProfile };

export const fetchMyClaims = (signal?: AbortSignal) =>
  api.json<{ claims: ProfileClaim[] }>('/api/claims/mine', { signal }).then((r) => r.claims);

/** One submit, sent once: the key is made when the form is shown, so a retry records one claim (ADR 0016). */
export const submitClaim = (
  body: { username: string; method: ClaimMethod; evidence: string; note: string },
  key: string,
) => api.json<ProfileClaim>('/api/claims', { method: 'POST', body, idempotent: true, idempotencyKey: key });
