import type { EditableProfileFields, SaveTipOptionsResponse, User } from '@ques/contracts/core';
import { api } from './api';

/*
 * The owner's calls that more than one screen makes (Account Settings, the set-up page, the payment page): one copy
 * here, since features do not import each other.
 */

const unwrap = (data: User | { user: User }): User =>
  'user' in data && data.user && typeof data.user === 'object' ? data.user : (data as User);

/** `currentPassword` only when the e-mail changes (identity asks for it then). */
export const updateProfile = async (fields: EditableProfileFields & { currentPassword?: string }) =>
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

/** What the tipping switch's save says (its toast on the payment page and the set-up page). */
export const tippingSaved = (on: boolean) => (on ? 'Tipping turned on' : 'Tipping turned off');

/** The tipping switch alone (issue 28): saved the moment it is flipped; the saved tip amounts stay. */
export const saveTipping = (userId: string, tippingEnabled: boolean) =>
  api.json<Partial<SaveTipOptionsResponse>>('/api/payments/tipOptions', { method: 'PUT', body: { userId, tippingEnabled } });
