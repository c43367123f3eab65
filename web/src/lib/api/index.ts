import { leaveTo } from '../browser';
import { ApiError, createApiClient } from './client';
import { safeStorage, TOKEN_REFRESHED_EVENT } from './storage';

export { ApiError, createApiClient, newIdempotencyKey, readErrorMessage, SESSION_EXPIRED_MESSAGE } from './client';
export type { ApiClient, ApiClientDeps, RequestOptions } from './client';
export { STORAGE_KEYS, TOKEN_REFRESHED_EVENT, safeStorage } from './storage';

const withLock =
  typeof navigator !== 'undefined' && 'locks' in navigator && navigator.locks
    ? async <T>(name: string, fn: () => Promise<T>): Promise<T> => navigator.locks.request(name, fn)
    : undefined;

/** The app-wide client. Feature `api.ts` files call it; components never call `fetch` directly. */
export const api = createApiClient({
  fetch: (input, init) => window.fetch(input, init),
  storage: safeStorage,
  redirectToLogin: () => leaveTo('/login'),
  onTokenRefreshed: () => window.dispatchEvent(new Event(TOKEN_REFRESHED_EVENT)),
  withLock,
});

/**
 * The message to show for a failed call, following the error catalogue's pattern (spec §8):
 * the server's `{ message }`, else `serverFallback` for an HTTP error, else `networkFallback` when the
 * request itself failed.
 */
export function errorText(err: unknown, serverFallback: string, networkFallback: string): string {
  if (err instanceof ApiError) return err.serverMessage || serverFallback;
  return networkFallback;
}
