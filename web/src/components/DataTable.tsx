import type { ReactNode } from 'react';

/** One column of a `DataTable`: its header and how a row fills its cell. */
export interface Column<T> {
  header: string;
  /** Header hidden visually, still read out (an actions column). */
  hideHeader?: boolean;
  /** The class of the column's header and cells. */
  className?: string;
  /** The class of its cells only, in place of `className` (right-aligned figures…). */
  cellClassName?: string;
  cell: (row: T) => ReactNode;
}

/**
 * A table of rows, one shape for every list the app shows as a table: a caption for screen readers, a header row of
 * column names (`scope="col"`) and one row per item. `labelCells` puts each column's name on its cells
 * (`data-label`, for the narrow layout that shows a row as a card).
 */
export function DataTable<T>({
  className,
  caption,
  columns,
  rows,
  rowKey,
  labelCells = false,
}: {
  className: string;
  caption: ReactNode;
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  labelCells?: boolean;
}) {
  return (
    <table className={className}>
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.header} scope="col" className={c.className}>
              {c.hideHeader ? <span className="visually-hidden">{c.header}</span> : c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((c) => (
              <td
                key={c.header}
                className={c.cellClassName ?? c.className}
                data-label={labelCells ? c.header : undefined}
              >
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
