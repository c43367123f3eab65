import type { PhaseFigures } from './checks.js';
import type { HttpStats } from './load/client.js';
import type { CrashSummary } from './topology/crash.js';

export interface PhaseResult {
  phase: string;
  fault: string;
  title: string;
  round: number;
  durationMs: number;
  figures: PhaseFigures;
  http: HttpStats;
  /** null: the system did not settle within the timeout. */
  quiescentAfterMs: number | null;
  /** What was still owed when the wait gave up. */
  notQuiescent: string;
  /** What the system owed when the clients stopped (explains a slow settle). */
  owedWhenLoadStopped: string;
  crashes: CrashSummary[];
  /** Names of the checks that failed; empty = the phase passed. */
  failures: string[];
}

/** Which checks a phase fails: every count must be 0, accepted must equal present, and the system must settle. */
export function failuresOf(figures: PhaseFigures, crashes: number, quiescent: boolean): string[] {
  const failures: string[] = [];
  if (figures.accepted === 0) failures.push('no ask accepted');
  if (figures.accepted !== figures.present || figures.lost > 0 || figures.ghosts > 0)
    failures.push('accepted ≠ present');
  if (figures.duplicates > 0) failures.push('duplicates');
  if (figures.doubleCaptures > 0) failures.push('double captures');
  if (figures.capturedAndReleased > 0) failures.push('captured and released');
  if (figures.wrongFinalState > 0) failures.push('wrong final state');
  if (figures.outboxUnpublished > 0) failures.push('outbox left');
  if (figures.deadLetters > 0) failures.push('dead letters');
  if (figures.jobsFailing > 0) failures.push('jobs failing');
  if (crashes > 0) failures.push('process crashes');
  if (!quiescent) failures.push('did not settle');
  return failures;
}

interface Row {
  label: string;
  value: (r: PhaseResult[]) => string;
  /** Rows that must read 0 (or, for accepted vs present, equal): marked when they do not. */
  gate?: (r: PhaseResult[]) => boolean;
}

const sum = (results: PhaseResult[], pick: (r: PhaseResult) => number) =>
  results.reduce((total, r) => total + pick(r), 0);
const count =
  (pick: (f: PhaseFigures) => number): Row['value'] =>
  (results) =>
    String(sum(results, (r) => pick(r.figures)));
const zero =
  (pick: (f: PhaseFigures) => number): Row['gate'] =>
  (results) =>
    sum(results, (r) => pick(r.figures)) === 0;

const ROWS: Row[] = [
  { label: 'asks sent', value: count((f) => f.asks) },
  {
    label: 'accepted (2xx): free / tipped',
    value: (rs) => `${sum(rs, (r) => r.figures.acceptedFree)} / ${sum(rs, (r) => r.figures.acceptedTipped)}`,
  },
  {
    label: 'refused (4xx) / gave up',
    value: (rs) => `${sum(rs, (r) => r.figures.rejected)} / ${sum(rs, (r) => r.figures.gaveUp)}`,
  },
  {
    label: 'accepted vs present',
    value: (rs) => `${sum(rs, (r) => r.figures.accepted)} vs ${sum(rs, (r) => r.figures.present)}`,
    gate: (rs) =>
      rs.every(
        (r) => r.figures.accepted === r.figures.present && r.figures.lost === 0 && r.figures.ghosts === 0,
      ),
  },
  { label: '  lost (accepted, absent)', value: count((f) => f.lost), gate: zero((f) => f.lost) },
  { label: '  present, never acknowledged', value: count((f) => f.ghosts), gate: zero((f) => f.ghosts) },
  { label: 'duplicated questions', value: count((f) => f.duplicates), gate: zero((f) => f.duplicates) },
  { label: 'double captures', value: count((f) => f.doubleCaptures), gate: zero((f) => f.doubleCaptures) },
  {
    label: 'tips captured and released',
    value: count((f) => f.capturedAndReleased),
    gate: zero((f) => f.capturedAndReleased),
  },
  {
    label: 'wrong final state',
    value: count((f) => f.wrongFinalState),
    gate: zero((f) => f.wrongFinalState),
  },
  {
    label: 'outbox rows unpublished',
    value: count((f) => f.outboxUnpublished),
    gate: zero((f) => f.outboxUnpublished),
  },
  { label: 'dead letters', value: count((f) => f.deadLetters), gate: zero((f) => f.deadLetters) },
  {
    label: 'jobs failing (retrying, gave up)',
    value: count((f) => f.jobsFailing),
    gate: zero((f) => f.jobsFailing),
  },
  {
    label: 'process crashes',
    value: (rs) => String(sum(rs, (r) => r.crashes.length)),
    gate: (rs) => rs.every((r) => r.crashes.length === 0),
  },
  {
    label: 'settled after (s)',
    value: (rs) =>
      rs.some((r) => r.quiescentAfterMs === null)
        ? 'NEVER'
        : (Math.max(...rs.map((r) => r.quiescentAfterMs ?? 0)) / 1000).toFixed(1),
    gate: (rs) => rs.every((r) => r.quiescentAfterMs !== null),
  },
  { label: 'HTTP requests', value: (rs) => String(sum(rs, (r) => r.http.requests)) },
  {
    label: '  5xx / network errors',
    value: (rs) => `${sum(rs, (r) => r.http.status5xx)} / ${sum(rs, (r) => r.http.networkErrors)}`,
  },
  { label: '  retries', value: (rs) => String(sum(rs, (r) => r.http.retries)) },
];

/** One column per fault (rounds of the long mode summed), one row per figure; `✗` marks a gate that failed. */
export function formatTable(results: PhaseResult[]): string {
  const faults = [...new Map(results.map((r) => [r.fault, r.title])).entries()];
  const columns = faults.map(([fault, title]) => ({
    title,
    results: results.filter((r) => r.fault === fault),
  }));
  const cells = ROWS.map((row) =>
    columns.map((c) => `${row.value(c.results)}${row.gate && !row.gate(c.results) ? ' ✗' : ''}`),
  );
  const labelWidth = Math.max(...ROWS.map((r) => r.label.length));
  const widths = columns.map((c, i) => Math.max(c.title.length, ...cells.map((line) => line[i]!.length)));
  const line = (label: string, values: string[]) =>
    `${label.padEnd(labelWidth)} │ ${values.map((v, i) => v.padStart(widths[i]!)).join(' │ ')}`;
  const rule = `${'─'.repeat(labelWidth)}─┼─${widths.map((w) => '─'.repeat(w)).join('─┼─')}`;
  return [
    line(
      '',
      columns.map((c) => c.title),
    ),
    rule,
    ...ROWS.map((row, i) => line(row.label, cells[i]!)),
  ].join('\n');
}

/** Settling slower than this is worth a line even when the phase passed (issue 12's recovery targets are 1–5 s). */
const SLOW_SETTLE_MS = 5_000;

/** The lines under the table: each failed phase, why, with examples, and each crash with its reason. */
export function formatFindings(results: PhaseResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    const slow = r.quiescentAfterMs !== null && r.quiescentAfterMs > SLOW_SETTLE_MS;
    if (slow)
      out.push(
        `${r.failures.length ? '✗' : '·'} ${r.phase}: settled after ${(r.quiescentAfterMs! / 1000).toFixed(1)} s; owed when the clients stopped: ${r.owedWhenLoadStopped}`,
      );
    if (r.failures.length === 0) continue;
    out.push(`✗ ${r.phase}: ${r.failures.join(', ')}`);
    for (const c of r.crashes)
      out.push(`    crash ${c.process}: exit ${c.code ?? '-'} signal ${c.signal ?? '-'} — ${c.reason}`);
    if (r.quiescentAfterMs === null) out.push(`    still owed when the wait gave up: ${r.notQuiescent}`);
    for (const s of r.figures.samples) out.push(`    ${s}`);
  }
  return out.join('\n');
}
