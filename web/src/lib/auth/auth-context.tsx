import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { User } from '@ques/contracts/core';
import { TOKEN_REFRESHED_EVENT } from '../api';
import { leaveTo } from '../browser';
import { fetchMyProfile, logoutOnServer } from './api';
import { clearOpsSession, isOperatorToken, syncOpsSession } from './operator';
import { session, withUsername } from './session';

export interface AuthState {
  user: User | null;
  /** True until the start-up profile fetch finished (spec §4). */
  authLoading: boolean;
  /** The session is a platform operator's (the token's claim; the server checks every operator call). */
  operator: boolean;
  /** After login/signup: store tokens and user. */
  signIn: (user: User, accessToken: string | undefined, refreshToken: string | undefined) => void;
  /** After the profile or avatar changed on the server. */
  updateUser: (user: User) => void;
  /** Best-effort server logout, local clean-up, then /login with a full reload (spec §2 "Logout"). */
  logout: () => Promise<void>;
  /** Local clean-up only (account deleted, session gone). */
  endSession: () => void;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  // The stored user paints the header at once; the fetch below confirms it.
  const [user, setUser] = useState<User | null>(() => (session.accessToken() ? session.readUser() : null));
  const [authLoading, setAuthLoading] = useState<boolean>(() => Boolean(session.accessToken()));
  const fetching = useRef(false);
  const [operator, setOperator] = useState<boolean>(() => isOperatorToken(session.accessToken()));
  /** After the token changed: an operator's session is announced to the server for the /ops pages. */
  const noteToken = useCallback(() => {
    const op = isOperatorToken(session.accessToken());
    setOperator(op);
    if (op) void syncOpsSession();
  }, []);

  const loadProfile = useCallback(async () => {
    if (fetching.current) return;
    if (!session.accessToken()) {
      setAuthLoading(false);
      return;
    }
    fetching.current = true;
    try {
      const fresh = withUsername(await fetchMyProfile());
      session.saveUser(fresh);
      setUser(fresh);
      noteToken();
    } catch (err) {
      // Spec §8: auth profile fetch errors are only logged. A refused refresh already removed the tokens.
      console.error('Profile fetch failed', err);
      if (!session.accessToken()) {
        session.clearForLogout();
        setUser(null);
      }
    } finally {
      fetching.current = false;
      setAuthLoading(false);
    }
  }, [noteToken]);

  useEffect(() => {
    void loadProfile();
    const onRefreshed = () => void loadProfile();
    window.addEventListener(TOKEN_REFRESHED_EVENT, onRefreshed);
    return () => window.removeEventListener(TOKEN_REFRESHED_EVENT, onRefreshed);
  }, [loadProfile]);

  const signIn = useCallback<AuthState['signIn']>((u, accessToken, refreshToken) => {
    const complete = withUsername(u);
    session.saveTokens(accessToken, refreshToken);
    session.saveUser(complete);
    setUser(complete);
    setAuthLoading(false);
    noteToken();
  }, [noteToken]);

  const updateUser = useCallback<AuthState['updateUser']>((u) => {
    const complete = withUsername(u);
    session.saveUser(complete);
    setUser(complete);
  }, []);

  const endSession = useCallback(() => {
    session.clearAll();
    setUser(null);
    setOperator(false);
  }, []);

  const logout = useCallback(async () => {
    try {
      await logoutOnServer(() => session.refreshToken());
    } catch (err) {
      console.warn('Server logout failed; clearing the local session anyway', err);
    }
    if (isOperatorToken(session.accessToken())) await clearOpsSession();
    session.clearForLogout();
    setUser(null);
    leaveTo('/login');
  }, []);

  const value = useMemo<AuthState>(
    () => ({ user, authLoading, operator, signIn, updateUser, logout, endSession }),
    [user, authLoading, operator, signIn, updateUser, logout, endSession],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}
