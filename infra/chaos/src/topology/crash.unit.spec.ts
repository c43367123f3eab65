import { describe, expect, it } from 'vitest';
import { crashSummary } from './crash.js';
import type { ExitRecord } from './process.js';

const record = (logTail: string, more: Partial<ExitRecord> = {}): ExitRecord => ({
  process: 'questions#1',
  code: 1,
  signal: null,
  at: new Date(),
  requested: null,
  clean: false,
  hung: false,
  stopMs: null,
  logTail,
  ...more,
});

describe('crashSummary', () => {
  it("names an unhandled 'error' event with its message and Postgres code, from the last start on", () => {
    const log = [
      '----- chaos: start #1 of questions#1 at 2026-01-01T00:00:00.000Z -----',
      'node:events:502',
      "      throw er; // Unhandled 'error' event",
      'error: an older crash',
      '----- chaos: start #2 of questions#1 at 2026-01-01T00:00:05.000Z -----',
      '{"level":30,"msg":"questions listening"}',
      'node:events:502',
      "      throw er; // Unhandled 'error' event",
      '      ^',
      '',
      'error: terminating connection due to administrator command',
      '    at parseErrorMessage (/x/node_modules/pg-protocol/dist/parser.js:306:11)',
      "Emitted 'error' event on Client instance at:",
      '    at Client._handleErrorEvent (/x/node_modules/pg/lib/client.js:422:10)',
      "  severity: 'FATAL',",
      "  code: '57P01',",
    ].join('\n');
    expect(crashSummary(record(log)).reason).toBe(
      "Unhandled 'error' event: error: terminating connection due to administrator command (57P01)",
    );
  });

  it('falls back to the last error-level log line', () => {
    const log = [
      '{"level":30,"msg":"listening"}',
      '{"level":60,"msg":"cannot start","err":{"message":"connect ECONNREFUSED 127.0.0.1:5432"}}',
    ].join('\n');
    expect(crashSummary(record(log)).reason).toBe('cannot start: connect ECONNREFUSED 127.0.0.1:5432');
  });

  it('names a shutdown that hung or failed after SIGTERM', () => {
    expect(
      crashSummary(
        record('', { requested: 'SIGTERM', hung: true, stopMs: 30_004, code: null, signal: 'SIGKILL' }),
      ).reason,
    ).toBe('shutdown hung: still running 30 s after SIGTERM, killed');
    expect(crashSummary(record('', { requested: 'SIGTERM', code: 1 })).reason).toBe(
      'unclean shutdown: exit code 1 after SIGTERM',
    );
  });

  it('says so when the log does not tell', () => {
    expect(crashSummary(record('{"level":30,"msg":"listening"}')).reason).toBe('(no reason in the log)');
  });
});
