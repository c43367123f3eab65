/** Local storage keys of spec §3. */
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  userData: 'userData',
  username: 'username',
} as const;

/** Fired on `window` after the client stored a refreshed access token (spec §4). */
export const TOKEN_REFRESHED_EVENT = 'token-refreshed';

/** localStorage can throw (Safari private mode, disabled storage); the app then runs without persistence. */
export const safeStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
  getItem(key) {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setItem(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      /* storage unavailable */
    }
  },
  removeItem(key) {
    try {
      window.localStorage.removeItem(key);
    } catch {
      /* storage unavailable */
    }
  },
};
