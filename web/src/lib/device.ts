import { DEVICE_HEADER, DEVICE_STORAGE_KEY, DEVICE_TOKEN_PATTERN } from '@ques/contracts/core';
import { safeStorage } from './api/storage';

/**
 * The browser's device token (issue 16): a random id kept in localStorage and sent as `X-Ques-Device` when asking or
 * checking out, so an owner's block of this browser survives a new IP address or e-mail, and with a support request or
 * a report, whose Idempotency-Key a guest may only use scoped to it (ADR 0054). It identifies nothing but
 * this browser's storage; the server keeps it only hashed per owner. Clearing site data makes a new one.
 */
export function deviceToken(storage: Pick<Storage, 'getItem' | 'setItem'> = safeStorage): string {
  const existing = storage.getItem(DEVICE_STORAGE_KEY);
  if (existing && DEVICE_TOKEN_PATTERN.test(existing)) return existing;
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  const token = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  storage.setItem(DEVICE_STORAGE_KEY, token);
  return token;
}

/** The header to send with an ask, a checkout, a support request or a report. */
export const deviceHeaders = (): Record<string, string> => ({ [DEVICE_HEADER]: deviceToken() });
