import type { EditableProfileFields, SaveTipOptionsResponse, User } from '@ques/contracts/core';
import { api } from '../../lib/api';

export { fetchChecklist, markOnboarding } from '../../lib/onboarding';

/*
 * The set-up page's own calls, each the same declared call another screen makes (features do not import each other):
 * the profile form's save, the avatar upload and the tipping switch.
 */

const unwrap = (data: User | { user: User }): User =>
  'user' in data && data.user && typeof data.user === 'object' ? data.user : (data as User);

export const updateProfile = async (fields: EditableProfileFields) =>
  unwrap(await api.json<User | { user: User }>('/api/users/profile', { method: 'PUT', body: fields }));

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

/** The tipping switch alone: the saved tip amounts stay. */
export const saveTipping = (userId: string, tippingEnabled: boolean) =>
  api.json<Partial<SaveTipOptionsResponse>>('/api/payments/tipOptions', { method: 'PUT', body: { userId, tippingEnabled } });
