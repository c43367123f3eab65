import { describe, expect, it } from 'vitest';
import type { PhaseFigures } from './checks.js';
import { emptyStats } from './load/client.js';
import { failuresOf, formatTable, type PhaseResult } from './report.js';

const clean: PhaseFigures = {
  asks: 10,
  accepted: 10,
  acceptedFree: 6,
  acceptedTipped: 4,
  rejected: 0,
  gaveUp: 0,
  present: 10,
  lost: 0,
  ghosts: 0,
  duplicates: 0,
  doubleCaptures: 0,
  capturedAndReleased: 0,
  wrongFinalState: 0,
  outboxUnpublished: 0,
  deadLetters: 0,
  jobsFailing: 0,
  samples: [],
};

const result = (fault: string, figures: PhaseFigures, crashes = 0): PhaseResult => ({
  phase: fault,
  fault,
  title: fault,
  round: 1,
  durationMs: 1,
  figures,
  http: emptyStats(),
  quiescentAfterMs: 500,
  notQuiescent: '',
  owedWhenLoadStopped: '',
  crashes: Array.from({ length: crashes }, () => ({
    process: 'questions#1',
    code: 1,
    signal: null,
    reason: 'boom',
  })),
  failures: failuresOf(figures, crashes, true),
});

describe('the gates of a phase', () => {
  it('passes only when every count is 0 and accepted equals present', () => {
    expect(failuresOf(clean, 0, true)).toEqual([]);
    expect(failuresOf({ ...clean, present: 11, ghosts: 1 }, 0, true)).toEqual(['accepted ≠ present']);
    expect(
      failuresOf({ ...clean, duplicates: 1, doubleCaptures: 1, capturedAndReleased: 1 }, 0, true),
    ).toEqual(['duplicates', 'double captures', 'captured and released']);
    expect(
      failuresOf(
        { ...clean, outboxUnpublished: 2, deadLetters: 1, jobsFailing: 3, wrongFinalState: 1 },
        0,
        true,
      ),
    ).toEqual(['wrong final state', 'outbox left', 'dead letters', 'jobs failing']);
    expect(failuresOf(clean, 2, false)).toEqual(['process crashes', 'did not settle']);
    // A phase in which nothing got through proves nothing.
    expect(
      failuresOf({ ...clean, asks: 5, accepted: 0, acceptedFree: 0, acceptedTipped: 0, present: 0 }, 0, true),
    ).toEqual(['no ask accepted']);
  });

  it('prints one column per fault and marks the rows that fail', () => {
    const table = formatTable([
      result('nats', clean),
      result('pg-terminate', { ...clean, duplicates: 1 }, 2),
    ]);
    const row = (label: string) => table.split('\n').find((l) => l.startsWith(label))!;
    expect(table.split('\n')[0]).toMatch(/nats .*│ pg-terminate/);
    expect(row('duplicated questions')).toMatch(/│\s+0 │\s+1 ✗$/);
    expect(row('process crashes')).toMatch(/│\s+0 │\s+2 ✗$/);
    expect(row('accepted vs present')).toMatch(/10 vs 10 │\s+10 vs 10$/);
  });
});
