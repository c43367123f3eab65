import type { ChangeHandleResponse, EditableProfileFields as ProfileFields } from '@ques/contracts/core';
import { api } from '../../lib/api';

export type { ProfileFields };

/** The current password is checked by identity (a session alone cannot change it). */
export const changePassword = (newPassword: string, currentPassword: string) =>
  api.json<unknown>('/api/users/profile', { method: 'PUT', body: { newPassword, currentPassword } });

/** The profile save and the avatar upload are the set-up page's too (lib/owner-calls). */
export { updateProfile, uploadAvatar } from '../../lib/owner-calls';

/** Mails a new verification link to the account's address. */
export const resendVerification = () =>
  api.json<{ message?: string }>('/api/users/verify-email/resend', { method: 'POST', body: {} });

/** With the bearer token: the spec's unauthenticated call is a defect we do not copy. */
export const deleteAccount = (id: string) =>
  api.json<unknown>(`/api/users/profile/${encodeURIComponent(id)}`, { method: 'DELETE' });

// The checks before sending live in lib/ (the operator console's archive profiles use them too).
export { AVATAR_NOT_IMAGE, AVATAR_TOO_BIG, checkAvatarFile } from '../../lib/avatar-upload';

/** Renames the public link (issue 28); the answer carries the account and an access token naming the new handle. */
export const changeHandle = (username: string) =>
  api.json<ChangeHandleResponse>('/api/users/handle', { method: 'PUT', body: { username } });
