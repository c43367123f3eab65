import type { ChangeHandleResponse, EditableProfileFields as ProfileFields, User } from '@ques/contracts/core';
import { api } from '../../lib/api';

export type { ProfileFields };

const unwrap = (data: User | { user: User }): User =>
  'user' in data && data.user && typeof data.user === 'object' ? data.user : (data as User);

/** The current password is checked by identity (a session alone cannot change it). */
export const changePassword = (newPassword: string, currentPassword: string) =>
  api.json<unknown>('/api/users/profile', { method: 'PUT', body: { newPassword, currentPassword } });

/** `currentPassword` only when the e-mail changes (identity asks for it then). */
export const updateProfile = async (fields: ProfileFields & { currentPassword?: string }) =>
  unwrap(await api.json<User | { user: User }>('/api/users/profile', { method: 'PUT', body: fields }));

/** Mails a new verification link to the account's address. */
export const resendVerification = () =>
  api.json<{ message?: string }>('/api/users/verify-email/resend', { method: 'POST', body: {} });

export async function uploadAvatar(file: File): Promise<User> {
  return unwrap(
    await api.json<User | { user: User }>('/api/users/avatar', {
      method: 'POST',
      // A function so the retry after a token refresh sends a fresh body.
      body: () => {
        const form = new FormData();
        form.append('avatar', file);
        return form;
      },
    }),
  );
}

/** With the bearer token: the spec's unauthenticated call is a defect we do not copy. */
export const deleteAccount = (id: string) =>
  api.json<unknown>(`/api/users/profile/${encodeURIComponent(id)}`, { method: 'DELETE' });

// The checks before sending live in lib/ (the operator console's archive profiles use them too).
export { AVATAR_NOT_IMAGE, AVATAR_TOO_BIG, checkAvatarFile } from '../../lib/avatar-upload';

/** Renames the public link (issue 28); the answer carries the account and an access token naming the new handle. */
export const changeHandle = (username: string) =>
  api.json<ChangeHandleResponse>('/api/users/handle', { method: 'PUT', body: { username } });
