import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { fetchQuestions, type AdminQuestion, type ListRole } from './api';
import { questionId } from './lists';

export type ListStatus = 'loading' | 'error' | 'ready';

export interface QuestionList {
  status: ListStatus;
  items: AdminQuestion[];
  hasMore: boolean;
  loadingMore: boolean;
  /** Fetches the first page again; the current rows stay on screen until it arrives. */
  reload: () => Promise<void>;
  /** After an error: back to the loading state, then fetch. */
  retry: () => void;
  loadMore: () => Promise<void>;
  /** Optimistic local changes. */
  update: (id: string, patch: Partial<AdminQuestion>) => void;
  replace: (question: AdminQuestion) => void;
  remove: (id: string) => void;
  prepend: (question: AdminQuestion) => void;
}

/** One of the caller's lists, page by page, with optimistic updates that a reload puts right. */
export function useQuestionList(role: ListRole): QuestionList {
  const [status, setStatus] = useState<ListStatus>('loading');
  const [items, setItems] = useState<AdminQuestion[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  // Only the latest request may write (a reload that overtakes an older one wins).
  const generation = useRef(0);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const page = await fetchQuestions(role);
      if (!mounted.current || mine !== generation.current) return;
      setItems(page.items);
      setNextCursor(page.nextCursor);
      setStatus('ready');
    } catch (err) {
      if (!mounted.current || mine !== generation.current) return;
      console.warn('Question list failed to load', err);
      setStatus('error');
    }
  }, [role]);

  const retry = useCallback(() => {
    setStatus('loading');
    void reload();
  }, [reload]);

  useEffect(retry, [retry]);

  const loadMore = useCallback(async () => {
    if (!nextCursor) return;
    const mine = generation.current;
    setLoadingMore(true);
    try {
      const page = await fetchQuestions(role, nextCursor);
      if (!mounted.current || mine !== generation.current) return;
      setItems((current) => {
        const seen = new Set(current.map(questionId));
        return [...current, ...page.items.filter((q) => !seen.has(questionId(q)))];
      });
      setNextCursor(page.nextCursor);
    } catch (err) {
      console.warn('More questions failed to load', err);
    } finally {
      if (mounted.current) setLoadingMore(false);
    }
  }, [role, nextCursor]);

  const update = useCallback((id: string, patch: Partial<AdminQuestion>) => {
    setItems((current) => current.map((q) => (questionId(q) === id ? { ...q, ...patch } : q)));
  }, []);
  const replace = useCallback((question: AdminQuestion) => {
    const id = questionId(question);
    setItems((current) => current.map((q) => (questionId(q) === id ? { ...q, ...question } : q)));
  }, []);
  const remove = useCallback((id: string) => {
    setItems((current) => current.filter((q) => questionId(q) !== id));
  }, []);
  const prepend = useCallback((question: AdminQuestion) => {
    setItems((current) => [question, ...current.filter((q) => questionId(q) !== questionId(question))]);
  }, []);

  return { status, items, hasMore: Boolean(nextCursor), loadingMore, reload, retry, loadMore, update, replace, remove, prepend };
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
