import type { ReactNode } from 'react';

interface AnswerGridProps<T> {
  items: readonly T[];
  getKey: (item: T) => string;
  render: (item: T) => ReactNode;
  label: string;
}

/**
 * The public answers as a CSS grid with a 4 px gutter (spec §9): 1, 2 or 3 columns by the viewport's width, chosen by
 * media queries alone (profile.css). The server's HTML therefore already has the layout the browser keeps: hydration
 * re-renders nothing and no card moves on the first pointer move, scroll or key (issue 28; the JavaScript masonry it
 * replaces rendered one column on the server and re-flowed on hydration). Cards read left to right, newest first, and
 * a page appended by "load more" goes after the last row without moving what is on screen (docs/adr/0055).
 */
export function AnswerGrid<T>({ items, getKey, render, label }: AnswerGridProps<T>) {
  return (
    <ul className="answer-grid" aria-label={label}>
      {items.map((item) => (
        <li className="answer-grid__item" key={getKey(item)}>
          {render(item)}
        </li>
      ))}
    </ul>
  );
}
