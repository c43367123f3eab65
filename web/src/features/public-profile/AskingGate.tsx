import { useEffect, useRef, useState, type ReactNode } from 'react';
import { formatPausedUntil, type AskingStatus } from '@ques/contracts/core';
import { api } from '../../lib/api';
import { pageDataKeys, usePageData } from '../../lib/ssr';

/** `GET /api/asking/status/:username`; a failure leaves the ask button (the server still refuses when it must). */
async function fetchAskingStatus(username: string, signal: AbortSignal): Promise<AskingStatus | null> {
  try {
    return await api.json<AskingStatus>(`/api/asking/status/${encodeURIComponent(username)}`, {
      signal,
      anonymous: true,
    });
  } catch {
    return null;
  }
}

/**
 * Issue 16: while the owner has paused their page, or has as many open questions as their cap, the page says so in
 * place of the ask button ("Not taking questions until {date}", with the owner's note).
 */
export function AskingGate({
  username,
  name,
  children,
}: {
  username: string;
  name: string;
  children: ReactNode;
}) {
  // A server-rendered page carries the status it was rendered with (lib/ssr.tsx): no fetch, the same first render.
  const initial = usePageData<AskingStatus>(pageDataKeys.asking(username));
  const [status, setStatus] = useState<AskingStatus | null>(initial && 'data' in initial ? initial.data : null);
  const fromServer = useRef(initial !== undefined);
  useEffect(() => {
    if (fromServer.current) {
      fromServer.current = false;
      return;
    }
    const controller = new AbortController();
    void fetchAskingStatus(username, controller.signal).then((s) => {
      if (!controller.signal.aborted) setStatus(s);
    });
    return () => controller.abort();
  }, [username]);

  if (!status || status.accepting) return <>{children}</>;
  return (
    <div className="notice notice--owner" role="status">
      {status.reason === 'paused' && status.pausedUntil ? (
        <p>
          <strong>Not taking questions until {formatPausedUntil(status.pausedUntil)}.</strong>
          {status.note ? <> {status.note}</> : null}
        </p>
      ) : (
        <p>
          <strong>{name} is not taking new questions right now.</strong> They have as many open questions as
          they can answer; please check back later.
        </p>
      )}
    </div>
  );
}
