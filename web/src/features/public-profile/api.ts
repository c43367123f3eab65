import { NEXT_CURSOR_HEADER, type PublicQuestion } from '@ques/contracts/core';
import { api } from '../../lib/api';
import { fetchPublicProfile } from '../../lib/public-profile';
import type { Page } from '../../lib/use-paged-list';

export const QUESTIONS_PAGE_SIZE = 24;

export async function fetchPublicQuestions(
  username: string,
  cursor?: string | null,
  signal?: AbortSignal,
): Promise<Page<PublicQuestion>> {
  const res = await api.request('/api/questions', {
    query: { username, role: 'receiver', limit: QUESTIONS_PAGE_SIZE, cursor },
    signal,
  });
  if (!res.ok) throw new Error('Failed to fetch questions');
  const data = (await res.json()) as unknown;
  return {
    items: Array.isArray(data) ? (data as PublicQuestion[]) : [],
    nextCursor: res.headers.get(NEXT_CURSOR_HEADER) || null,
  };
}

/** Spec §5 "Lists": what the public page shows, newest first. */
export function publicAnswers(items: readonly PublicQuestion[], username: string): PublicQuestion[] {
  const owner = username.toLowerCase();
  return items
    .filter(
      (q) =>
        Boolean(q.answer?.trim()) &&
        q.displayOnProfile !== false &&
        !q.deletedByReceiver &&
        (q.toUsername ?? '').toLowerCase() === owner,
    )
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

// ---- first-paint prefetch (see load.ts) ----

const prefetched = new Map<string, Promise<unknown>>();

function remember<T>(key: string, promise: Promise<T>): void {
  promise.catch(() => undefined); // consumed later; never an unhandled rejection
  prefetched.set(key, promise);
}

/** Starts the profile and first-page requests for /ask/{username} before React renders. */
export function prefetchPublicPage(username: string): void {
  remember(`profile:${username}`, fetchPublicProfile(username));
  remember(`questions:${username}`, fetchPublicQuestions(username));
}

/** A prefetched promise, handed out once (later visits fetch fresh data). */
export function takePrefetched<T>(key: string): Promise<T> | undefined {
  const promise = prefetched.get(key) as Promise<T> | undefined;
  prefetched.delete(key);
  return promise;
}
