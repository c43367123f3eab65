import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * One value in COPY's text format: null as `\N`, booleans as `t`/`f`, numbers as written, dates as ISO strings,
 * strings as they are, any other value (objects, arrays: jsonb columns) as its JSON — the values
 * `insertRowsAsJson` takes, except that a Postgres array column would need its own literal (not supported).
 */
export function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
  return SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : text;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Writes rows with `COPY table (columns) FROM STDIN` on `client` (ADR 0039): no statement to parse per row and no
 * JSON for Postgres to take apart, the cheapest way in for a rebuild's new rows. `table` is resolved by the session's
 * search_path (a rebuild's shadow schema first). Every row must have the same keys; a duplicate key fails the COPY
 * (and the transaction), so only rows that cannot exist yet may go this way.
 */
export async function copyRows(client: pg.ClientBase, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  let text = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < columns.length; i += 1) line += (i === 0 ? '' : '\t') + copyText(row[columns[i]!]);
    text += `${line}\n`;
  }
  const stream = client.query(copyFrom(`COPY ${quoteIdent(table)} (${columns.map(quoteIdent).join(', ')}) FROM STDIN`));
  await pipeline(Readable.from([text]), stream);
}
