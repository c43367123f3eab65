/**
 * The figures table of issue 17: one declared row per figure, filled in by the bench sections as they measure, and
 * printed at the end of every run with its figure, bar, PASS/MISS and the 1-minute load average at the moment it
 * was measured (the machine may be shared: read a ratio against its same-run baseline, not an absolute).
 *
 * To add a row: one line in ROWS (id, figure, bar, the section that measures it), and a `record(id, …)` call where
 * it is measured. A declared row whose section did not run prints "not run"; one whose section failed prints "failed".
 */
import { loadavg } from 'node:os';

export interface RowSpec {
  id: string;
  figure: string;
  bar: string;
  /** The `npm run bench -w @ques/bench -- <section>` that measures it. */
  section: 'http' | 'static' | 'memory' | 'pipeline' | 'latency' | 'lighthouse' | 'similar';
  /** A figure printed for the record, without a bar: INFO once measured. */
  info?: boolean;
}

export const ROWS: RowSpec[] = [
  { id: 'rebuild', figure: 'Projection rebuild (online, shadow tables), events/s and % of a raw keyset read', bar: '≥ 50,000/s over 1M events and ≥ 55 %', section: 'pipeline' },
  { id: 'relay', figure: 'Outbox → JetStream relay, events/s', bar: '≥ 25,000/s', section: 'pipeline' },
  { id: 'ask-inbox', figure: "Ask → visible in the owner's inbox (distributed), p99", bar: '≤ 25 ms at 100 asks/s with 1,000 reads/s', section: 'latency' },
  { id: 'authorised-held', figure: 'Card authorised → question visible as held (distributed), p99', bar: '≤ 25 ms', section: 'latency' },
  { id: 'answer-captured', figure: 'Answer → tip captured (distributed), p99', bar: '≤ 100 ms', section: 'latency' },
  { id: 'health', figure: 'Service GET /health vs bare node:http, req/s', bar: '≥ 85 % (aim 92 %)', section: 'http' },
  { id: 'bff-list', figure: 'BFF public list vs the bare route, req/s', bar: '≥ 75 % (and p99 ≤ ×2 of it)', section: 'http' },
  { id: 'bff-list-cached', figure: 'BFF public list with the read cache vs the bare route, req/s', bar: 'none (ADR 0040)', section: 'http', info: true },
  { id: 'similar', figure: '"Already answered?" search on 2,000 public answers, worst p99 of four kinds of search (issue 14)', bar: '≤ 20 ms', section: 'similar' },
  { id: 'rss', figure: 'Embedded npm start peak RSS under load (launcher process tree)', bar: '≤ 400 MB', section: 'memory' },
];

export interface Recorded {
  /** The figure as printed, e.g. "41,200 events/s (61.3 %)". */
  value: string;
  ok: boolean;
  /** 1-minute load average when the figure was taken. */
  load: number;
  detail?: Record<string, unknown>;
}

const recorded = new Map<string, Recorded>();

/** Records a measured row (the id must be declared in ROWS). */
export function record(id: string, value: string, ok: boolean, detail?: Record<string, unknown>): void {
  if (!ROWS.some((r) => r.id === id)) throw new Error(`bench row ${id} is not declared in ROWS (src/table.ts)`);
  recorded.set(id, { value, ok, load: loadavg()[0]!, detail });
}

const leftOut = new Set<string>();

/** A row its section left out on purpose (e.g. BENCH_ASK_SECONDS=0): "not run", not "failed". */
export function recordNotRun(id: string): void {
  if (!ROWS.some((r) => r.id === id)) throw new Error(`bench row ${id} is not declared in ROWS (src/table.ts)`);
  leftOut.add(id);
}

export const loadNow = () => loadavg()[0]!;

export interface TableLine extends RowSpec {
  status: 'PASS' | 'MISS' | 'INFO' | 'not run' | 'failed';
  value: string;
  load: number | null;
  detail?: Record<string, unknown>;
}

export function tableLines(ran: (section: RowSpec['section']) => boolean): TableLine[] {
  return ROWS.map((row) => {
    const r = recorded.get(row.id);
    if (r) return { ...row, status: row.info ? 'INFO' : r.ok ? 'PASS' : 'MISS', value: r.value, load: r.load, detail: r.detail };
    return { ...row, status: ran(row.section) && !leftOut.has(row.id) ? 'failed' : 'not run', value: '—', load: null };
  });
}

/** The table as text: one line per row, aligned. */
export function formatTable(lines: TableLine[]): string {
  const cells = lines.map((l) => [l.status, l.figure, l.value, l.bar, l.load === null ? '' : l.load.toFixed(1)]);
  const head = ['', 'Figure', 'Measured', 'Bar', 'Load'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const fmt = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join('  ').trimEnd();
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(fmt)].join('\n');
}
