/*
 * CSV for the data export (RFC 4180), safe to open in a spreadsheet: a cell that starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return is a formula to Excel, LibreOffice and Sheets, so it gets a leading `'` (OWASP "CSV Injection");
 * every cell is quoted and its quotes doubled, so commas, quotes and line breaks stay inside it.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | boolean | null | undefined | readonly string[];

/** One cell, escaped and quoted. */
export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? value.join(', ') : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** A header row and one row per record, CRLF line ends (RFC 4180), with a BOM so spreadsheets read UTF-8. */
export function toCsv<T>(columns: readonly (readonly [string, (row: T) => CsvValue])[], rows: readonly T[]): string {
  const lines = [columns.map(([name]) => csvCell(name)).join(',')];
  for (const row of rows) lines.push(columns.map(([, get]) => csvCell(get(row))).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
