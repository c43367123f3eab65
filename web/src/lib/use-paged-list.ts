import { useCallback, useRef, useState, type DependencyList } from 'react';
import { useApiData, type ApiData, type Loaded } from './use-api-data';

/** One page of a list: the `x-next-cursor` header says where the next one starts (null on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PagedList<T> extends Pick<ApiData<Page<T>>, 'status' | 'error' | 'reload' | 'retry'> {
  items: T[];
  hasMore: boolean;
  loadingMore: boolean;
  /** What the last "load more" threw; undefined after a success. */
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
  /** The first page as the server loaded it (lib/ssr.tsx). */
  initial?: Loaded<Page<T>>,
): PagedList<T> {
  const { data, setData, signal, ...first } = useApiData((signal) => load(null, signal), deps, initial);
  // [loading, error] of "load more"; the ref stops a second request while one runs.
  const [more, setMore] = useState<[boolean, unknown]>([false, undefined]);
  const running = useRef(false);
  const cursor = data?.nextCursor;

  const loadMore = async () => {
    if (!cursor || running.current) return;
    running.current = true;
    const current = signal();
    setMore([true, undefined]);
    let error: unknown;
    try {
      const page = await load(cursor, current);
      if (!current.aborted)
        setData(({ items }) => {
          const seen = new Set(items.map(keyOf));
          return { items: [...items, ...page.items.filter((item) => !seen.has(keyOf(item)))], nextCursor: page.nextCursor };
        });
    } catch (err) {
      if (!current.aborted) error = err;
    }
    running.current = false;
    setMore([false, error]);
  };

  const setItems = useCallback(
    (update: (items: T[]) => T[]) => setData((page) => ({ ...page, items: update(page.items) })),
    [setData],
  );

  return {
    ...first,
    items: data?.items ?? NO_ITEMS,
    hasMore: Boolean(cursor),
    loadingMore: more[0],
    loadMoreError: more[1],
    loadMore,
    setItems,
  };
}
