import type { User } from '@ques/contracts/core';
import { api } from '../api';

/* The session's own calls: who is signed in, and logging out. Login, signup and password reset are features/auth. */

/** `GET /api/users/profile`: the user object (some servers wrap it as `{ user }`). */
export async function fetchMyProfile(): Promise<User> {
  const data = await api.json<User | { user: User }>('/api/users/profile', { onSessionExpired: 'stay' });
  return 'user' in data && data.user && typeof data.user === 'object' ? data.user : (data as User);
}

/** Revokes the server session; best effort, the caller clears local state whatever happens. */
export async function logoutOnServer(readRefreshToken: () => string | null): Promise<void> {
  await api.request('/api/users/logout', {
    method: 'POST',
    // Read per attempt: if the access token had expired, the retry carries the rotated refresh token.
    body: () => ({ refreshToken: readRefreshToken() ?? undefined }),
    onSessionExpired: 'stay',
  });
}
