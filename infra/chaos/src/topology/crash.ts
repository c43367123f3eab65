import type { ExitRecord } from './process.js';

export interface CrashSummary {
  process: string;
  code: number | null;
  signal: string | null;
  /** The line of the log that says why (an unhandled error, a fatal log), if any. */
  reason: string;
}

/**
 * What a crashed process's log says about why: an unhandled error's message (Node prints it to stderr, not as a log
 * line), else the last error-level log message; with the error code (57P01…) when the log shows one.
 */
export function crashSummary(record: ExitRecord): CrashSummary {
  if (record.hung) {
    const seconds = ((record.stopMs ?? 0) / 1000).toFixed(0);
    return {
      process: record.process,
      code: record.code,
      signal: record.signal,
      reason: `shutdown hung: still running ${seconds} s after SIGTERM, killed`,
    };
  }
  if (record.requested === 'SIGTERM' && record.code !== 0) {
    return {
      process: record.process,
      code: record.code,
      signal: record.signal,
      reason: `unclean shutdown: exit code ${record.code} after SIGTERM`,
    };
  }
  const all = record.logTail.split('\n');
  const lastStart = all.findLastIndex((l) => l.startsWith('----- chaos: start'));
  const lines = all.slice(lastStart + 1).filter((l) => l.trim());
  const plain = lines.filter((l) => !l.startsWith('{'));
  const message = plain.find((l) => /^(\w*Error|error)\b.*:/.test(l.trim()))?.trim();
  let reason = '';
  if (plain.some((l) => l.includes("Unhandled 'error' event")))
    reason = `Unhandled 'error' event${message ? `: ${message}` : ''}`;
  else if (message) reason = message;
  else {
    for (const line of [...lines].reverse()) {
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
        if ((entry.level ?? 0) >= 50) {
          reason = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`;
          break;
        }
      } catch {
        // not a log line
      }
    }
  }
  const code = /code: '(\w+)'/.exec(plain.join('\n'))?.[1];
  if (code) reason = `${reason} (${code})`;
  return {
    process: record.process,
    code: record.code,
    signal: record.signal,
    reason: reason.slice(0, 240) || '(no reason in the log)',
  };
}
