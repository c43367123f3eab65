import type { PublicProfile } from '@ques/contracts/core';
import { api, ApiError, readErrorMessage } from './api';

/** `GET /api/users/public/{username}`: read by the public profile and the answer page (an ApiError: 404 = no such person). */
export async function fetchPublicProfile(username: string, signal?: AbortSignal): Promise<PublicProfile> {
  const res = await api.request(`/api/users/public/${encodeURIComponent(username)}`, { signal });
  if (!res.ok) {
    const { message } = await readErrorMessage(res);
    throw new ApiError(res.status, message || `Failed to fetch user profile (status: ${res.status})`);
  }
  return (await res.json()) as PublicProfile;
}
