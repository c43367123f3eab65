import { OPERATOR_CLAIM } from '@ques/contracts/core';
import { api } from '../api';

/**
 * Whether an access token carries the platform-operator claim (issue 18). Only a hint for the browser — which
 * screens to offer, whether to fetch the console's chunk at all; every operator call is checked on the server.
 */
export function isOperatorToken(token: string | null): boolean {
  if (!token) return false;
  const payload = token.split('.')[1];
  if (!payload) return false;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    return (JSON.parse(json) as Record<string, unknown>)[OPERATOR_CLAIM] === true;
  } catch {
    return false;
  }
}

/**
 * Lets the server know this browser's session is an operator's, so that `/ops` page requests are served (an
 * HttpOnly cookie scoped to /ops, set by the BFF after checking the token). Best effort: the app shows the console
 * from the token either way.
 */
export async function syncOpsSession(): Promise<void> {
  try {
    await api.request('/api/ops/session', { method: 'POST', onSessionExpired: 'stay' });
  } catch {
    /* the page still works; only a reload of /ops would show the 404 page */
  }
}

/** Drops the /ops cookie (logout). */
export async function clearOpsSession(): Promise<void> {
  try {
    await api.request('/api/ops/session', { method: 'DELETE', anonymous: true });
  } catch {
    /* best effort */
  }
}
