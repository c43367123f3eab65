import type { ChangeHandleResponse, HandleAvailability } from '@ques/contracts/core';
import { api } from '../../lib/api';

/** The live check under a handle field (issue 28); signed in, a handle you released yourself reads as available. */
export const handleAvailability = (handle: string, signal?: AbortSignal) =>
  api.json<HandleAvailability>(`/api/handles/${encodeURIComponent(handle)}/availability`, { signal });

/** Renames the public link; the answer carries the account and an access token naming the new handle. */
export const changeHandle = (username: string) =>
  api.json<ChangeHandleResponse>('/api/users/handle', { method: 'PUT', body: { username } });
