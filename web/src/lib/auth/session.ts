import { usernameFromName, type User } from '@ques/contracts/core';
import { safeStorage, STORAGE_KEYS } from '../api';

/** Local persistence of the session (spec §3 keys). */
export const session = {
  accessToken: () => safeStorage.getItem(STORAGE_KEYS.accessToken),
  refreshToken: () => safeStorage.getItem(STORAGE_KEYS.refreshToken),

  readUser(): User | null {
    const raw = safeStorage.getItem(STORAGE_KEYS.userData);
    if (!raw) return null;
    try {
      const user = JSON.parse(raw) as User;
      return user && typeof user === 'object' && typeof user.name === 'string' ? user : null;
    } catch {
      return null;
    }
  },

  saveUser(user: User): void {
    safeStorage.setItem(STORAGE_KEYS.userData, JSON.stringify(user));
    if (user.username) safeStorage.setItem(STORAGE_KEYS.username, user.username);
  },

  saveTokens(accessToken: string | undefined, refreshToken: string | undefined): void {
    if (accessToken) safeStorage.setItem(STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken) safeStorage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
  },

  /** Logout per spec §4: the access token and user data go; the refresh token stays. */
  clearForLogout(): void {
    safeStorage.removeItem(STORAGE_KEYS.accessToken);
    safeStorage.removeItem(STORAGE_KEYS.userData);
    safeStorage.removeItem(STORAGE_KEYS.username);
  },

  /** Everything, e.g. after the account was deleted. */
  clearAll(): void {
    this.clearForLogout();
    safeStorage.removeItem(STORAGE_KEYS.refreshToken);
  },
};

/** Spec §3: a user stored without a username gets the one derived from their name. */
export function withUsername(user: User): User {
  return user.username ? user : { ...user, username: usernameFromName(user.name ?? '') };
}
