import { api } from '../../lib/api';
import type { MessageResponse, User } from '../../lib/api';

export interface LoginResponse {
  message: string;
  user: User;
  accessToken: string;
  refreshToken: string;
}

export interface SignupResponse {
  message?: string;
  user?: User;
  token?: string;
  accessToken?: string;
  refreshToken?: string;
}

export const login = (email: string, password: string) =>
  api.json<LoginResponse>('/api/users/login', { method: 'POST', body: { email, password }, anonymous: true });

export const signup = (name: string, email: string, password: string) =>
  api.json<SignupResponse & Partial<User>>('/api/users', {
    method: 'POST',
    body: { name, email, password },
    anonymous: true,
  });

export const requestPasswordReset = (email: string) =>
  api.json<Partial<MessageResponse>>('/api/users/reset-password', {
    method: 'POST',
    body: { email },
    anonymous: true,
  });

export const confirmPasswordReset = (token: string, password: string) =>
  api.json<Partial<MessageResponse>>('/api/users/reset-password-confirm', {
    method: 'POST',
    body: { token, password },
    anonymous: true,
  });

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
