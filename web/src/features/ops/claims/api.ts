import type { ClaimStatus, OpsProfileClaim } from '@ques/contracts/core';
import { api } from '../../../lib/api';

export const fetchClaims = (status: ClaimStatus | '', signal?: AbortSignal) =>
  api
    .json<{ claims: OpsProfileClaim[] }>('/api/ops/claims', { query: status ? { status } : {}, signal })
    .then((r) => r.claims);

/** Both carry the key made when the confirmation opened (ADR 0016): a second press answers the first result. */
export const approveClaim = (id: string, key: string) =>
  api.json<OpsProfileClaim>(`/api/ops/claims/${id}/approve`, {
    method: 'POST',
    idempotent: true,
    idempotencyKey: key,
  });
export const rejectClaim = (id: string, reason: string, key: string) =>
  api.json<OpsProfileClaim>(`/api/ops/claims/${id}/reject`, {
    method: 'POST',
    body: { reason },
    idempotent: true,
    idempotencyKey: key,
  });
