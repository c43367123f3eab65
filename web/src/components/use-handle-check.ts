import { useEffect, useState } from 'react';
import { handleProblem, normalizeHandle, type HandleAvailability } from '@ques/contracts/core';
import { api } from '../lib/api';

/** The live check under a handle field (issue 28); signed in, a handle you released yourself reads as available. */
const handleAvailability = (handle: string, signal?: AbortSignal) =>
  api.json<HandleAvailability>(`/api/handles/${encodeURIComponent(handle)}/availability`, { signal });

/** Where the live check of a handle stands. */
export type HandleCheck =
  | { state: 'idle' }
  | { state: 'checking'; handle: string }
  | { state: 'available'; handle: string }
  | { state: 'refused'; handle: string; reason: string };

/** How long typing must pause before the server is asked (the rule itself is checked at once, in the browser). */
export const HANDLE_CHECK_DELAY_MS = 350;

/**
 * The live check of a handle (issue 28): the shared rule first (spaces, look-alikes, length, reserved words — no
 * request), then, once typing pauses, whether it is free. `skip` (the person's own current handle) is not checked.
 * A failed request leaves the check undecided: the server decides on submit.
 */
export function useHandleCheck(raw: string, skip?: string): HandleCheck {
  const handle = normalizeHandle(raw);
  const problem = raw ? handleProblem(raw) : null;
  const [server, setServer] = useState<HandleCheck | { state: 'unknown'; handle: string }>({ state: 'idle' });

  useEffect(() => {
    if (!handle || problem || handle === skip) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      handleAvailability(handle, controller.signal).then(
        (answer) =>
          setServer(
            answer.available
              ? { state: 'available', handle }
              : { state: 'refused', handle, reason: answer.reason ?? 'That link is taken.' },
          ),
        () => {
          if (!controller.signal.aborted) setServer({ state: 'unknown', handle });
        },
      );
    }, HANDLE_CHECK_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [handle, problem, skip]);

  if (!raw || handle === skip) return { state: 'idle' };
  if (problem) return { state: 'refused', handle, reason: problem };
  // An answer about an earlier value is not shown for this one.
  if (!('handle' in server) || server.handle !== handle) return { state: 'checking', handle };
  return server.state === 'unknown' ? { state: 'idle' } : server;
}
