import { useCallback, useRef, useState, type DependencyList } from 'react';
import { useApiData, type ApiData } from './use-api-data';

/** One page of a list: the `x-next-cursor` header says where the next one starts (null on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PagedList<T> extends Pick<ApiData<Page<T>>, 'status' | 'error' | 'reload' | 'retry'> {
  items: T[];
  hasMore: boolean;
  loadingMore: boolean;
  /** What the last "load more" threw; null after a success. */
  loadMoreError: unknown;
  loadMore: () => Promise<void>;
  /** Local changes of the rows (optimistic updates); a reload puts them right. */
  setItems: (update: (items: T[]) => T[]) => void;
}

const NO_ITEMS: never[] = [];

/**
 * A list read page by page (`load(null)` is the first page). Pages that overlap (a row moved between two requests)
 * are merged by `keyOf`. A new first page (reload, other `deps`) drops a "load more" still in flight.
 */
export function usePagedList<T>(
  load: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>,
  keyOf: (item: T) => string,
  deps: DependencyList,
): PagedList<T> {
  const first = useApiData((signal) => load(null, signal), deps);
  const [more, setMore] = useState<{ loading: boolean; error: unknown }>({ loading: false, error: null });
  const latest = useRef({ load, keyOf });
  latest.current = { load, keyOf };
  const inFlight = useRef(false);
  const { setData, signal: signalOf } = first;
  const cursor = first.data?.nextCursor ?? null;

  const loadMore = useCallback(async () => {
    if (!cursor || inFlight.current) return;
    inFlight.current = true;
    const signal = signalOf();
    setMore({ loading: true, error: null });
    try {
      const page = await latest.current.load(cursor, signal);
      if (signal.aborted) return;
      const key = latest.current.keyOf;
      setData((current) => {
        const seen = new Set(current.items.map(key));
        return { items: [...current.items, ...page.items.filter((item) => !seen.has(key(item)))], nextCursor: page.nextCursor };
      });
      setMore({ loading: false, error: null });
    } catch (error) {
      if (!signal.aborted) setMore({ loading: false, error });
    } finally {
      inFlight.current = false;
      if (signal.aborted) setMore({ loading: false, error: null });
    }
  }, [cursor, setData, signalOf]);

  const setItems = useCallback(
    (update: (items: T[]) => T[]) => setData((current) => ({ ...current, items: update(current.items) })),
    [setData],
  );

  return {
    status: first.status,
    error: first.error,
    reload: first.reload,
    retry: first.retry,
    items: first.data?.items ?? NO_ITEMS,
    hasMore: Boolean(cursor),
    loadingMore: more.loading,
    loadMoreError: more.error,
    loadMore,
    setItems,
  };
}
