import type { TrustStats } from '@ques/contracts/core';
import { api } from './api';

/** `GET /api/trust-stats/{username}` (issue 15): public figures once the owner is established. */
export const fetchPublicTrustStats = (username: string, signal?: AbortSignal) =>
  api.json<TrustStats>(`/api/trust-stats/${encodeURIComponent(username)}`, { signal });

/** `GET /api/trust-stats`: the signed-in owner's own figures (admin area). */
export const fetchMyTrustStats = (signal?: AbortSignal) => api.json<TrustStats>('/api/trust-stats', { signal });
