import { useMemo, useSyncExternalStore, type ReactNode } from 'react';

const QUERIES = ['(min-width: 1040px)', '(min-width: 640px)'] as const;

function columnsNow(): number {
  if (typeof window.matchMedia !== 'function') return 1;
  if (window.matchMedia(QUERIES[0]).matches) return 3;
  if (window.matchMedia(QUERIES[1]).matches) return 2;
  return 1;
}

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const lists = QUERIES.map((q) => window.matchMedia(q));
  lists.forEach((l) => l.addEventListener('change', onChange));
  return () => lists.forEach((l) => l.removeEventListener('change', onChange));
}

/** 1, 2 or 3 columns by viewport width; known on the first render, so nothing jumps. */
export function useColumnCount(): number {
  return useSyncExternalStore(subscribe, columnsNow, () => 1);
}

/**
 * Places each item in the column that is currently shortest (by an estimated height). Items keep their
 * column when more are appended, so infinite scroll never reshuffles what is already on screen.
 */
export function distribute<T>(items: readonly T[], columns: number, estimate: (item: T) => number): T[][] {
  const cols: T[][] = Array.from({ length: Math.max(1, columns) }, () => []);
  const heights = cols.map(() => 0);
  for (const item of items) {
    let target = 0;
    for (let i = 1; i < heights.length; i++) if (heights[i]! < heights[target]!) target = i;
    cols[target]!.push(item);
    heights[target]! += estimate(item);
  }
  return cols;
}

interface MasonryGridProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  estimate: (item: T) => number;
  render: (item: T) => ReactNode;
  label: string;
}

/** Masonry with a 4 px gutter (spec §9), hand-written: flex columns, no library. */
export function MasonryGrid<T>({ items, getKey, estimate, render, label }: MasonryGridProps<T>) {
  const columns = useColumnCount();
  const cols = useMemo(() => distribute(items, columns, estimate), [items, columns, estimate]);
  return (
    <div className="masonry" role="list" aria-label={label}>
      {cols.map((col, i) => (
        <div className="masonry__column" role="presentation" key={i}>
          {col.map((item) => (
            <div role="listitem" className="masonry__item" key={getKey(item)}>
              {render(item)}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
