import { useEffect } from 'react';
import { profilePath, type PublicProfile } from '@ques/contracts/core';
import { api, ApiError, readErrorMessage } from './api';
import { useLocation, useNavigate } from 'react-router-dom';

/** `GET /api/users/public/{username}`: read by the public profile and the answer page (an ApiError: 404 = no such person). */
export async function fetchPublicProfile(username: string, signal?: AbortSignal): Promise<PublicProfile> {
  const res = await api.request(`/api/users/public/${encodeURIComponent(username)}`, { signal });
  if (!res.ok) {
    const { message } = await readErrorMessage(res);
    throw new ApiError(res.status, message || `Failed to fetch user profile (status: ${res.status})`);
  }
  return (await res.json()) as PublicProfile;
}

/**
 * A renamed handle in the address (issue 28, ADR 0057): identity answers an old handle with the profile under its new
 * one — the BFF's 301 on a full load compares the same way (bff/src/seo/page-load.ts `isRenamed`), case aside. The app
 * reaches `/ask/{old}` without a load (a link, the history), so here the address is replaced by the same path under the
 * new handle, keeping the rest (answer id, slug, query, hash). True while it is being replaced: the page shows its
 * loading state meanwhile, never the profile under a link that no longer names it.
 */
export function useCanonicalHandle(routeHandle: string | undefined, profile: Pick<PublicProfile, 'username'> | null | undefined): boolean {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const current = profile?.username;
  const moved = Boolean(routeHandle && current && current.toLowerCase() !== routeHandle.toLowerCase());
  const target = moved ? `${pathname.replace(/^\/ask\/[^/]+/i, profilePath(current!))}${search}${hash}` : '';
  useEffect(() => {
    // Replace, not push: Back must not land on the old handle and bounce forward again.
    if (target) void navigate(target, { replace: true });
  }, [target, navigate]);
  return moved;
}
