import type { Question } from '@ques/contracts/core';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { LoadStatus } from '../../lib/use-api-data';
import { usePagedList } from '../../lib/use-paged-list';
import { fetchQuestions, type ListRole } from './api';
import { questionId } from './lists';

export interface QuestionList {
  status: LoadStatus;
  items: Question[];
  hasMore: boolean;
  loadingMore: boolean;
  /** Fetches the first page again; the current rows stay on screen until it arrives. */
  reload: () => Promise<void>;
  /** After an error: back to the loading state, then fetch. */
  retry: () => void;
  loadMore: () => Promise<void>;
  /** Optimistic local changes. */
  update: (id: string, patch: Partial<Question>) => void;
  replace: (question: Question) => void;
  remove: (id: string) => void;
  prepend: (question: Question) => void;
}

/** One of the caller's lists, page by page, with optimistic updates that a reload puts right. */
export function useQuestionList(role: ListRole): QuestionList {
  const list = usePagedList((cursor, signal) => fetchQuestions(role, cursor, signal), questionId, [role]);
  const { setItems } = list;

  useEffect(() => {
    if (list.status === 'error') console.warn('Question list failed to load', list.error);
  }, [list.status, list.error]);
  useEffect(() => {
    if (list.loadMoreError) console.warn('More questions failed to load', list.loadMoreError);
  }, [list.loadMoreError]);

  const update = useCallback(
    (id: string, patch: Partial<Question>) => setItems((items) => items.map((q) => (questionId(q) === id ? { ...q, ...patch } : q))),
    [setItems],
  );
  const replace = useCallback(
    (question: Question) => {
      const id = questionId(question);
      setItems((items) => items.map((q) => (questionId(q) === id ? { ...q, ...question } : q)));
    },
    [setItems],
  );
  const remove = useCallback((id: string) => setItems((items) => items.filter((q) => questionId(q) !== id)), [setItems]);
  const prepend = useCallback(
    (question: Question) => setItems((items) => [question, ...items.filter((q) => questionId(q) !== questionId(question))]),
    [setItems],
  );

  return {
    status: list.status,
    items: list.items,
    hasMore: list.hasMore,
    loadingMore: list.loadingMore,
    reload: list.reload,
    retry: list.retry,
    loadMore: list.loadMore,
    update,
    replace,
    remove,
    prepend,
  };
}

// Below this the seven-column inbox table does not fit next to the side navigation (checked by the browser tests).
const NARROW_QUERY = '(max-width: 1279px)';

function subscribeNarrow(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const mql = window.matchMedia(NARROW_QUERY);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}
const readNarrow = () => (typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_QUERY).matches : false);

/** Phones and tablets get cards instead of the table (spec §2 "Mobile shows cards"). */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribeNarrow, readNarrow, () => false);
}

/** The current time, ticking every minute (time left before a held tip is released). */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}
