import pino, { type Logger } from 'pino';

/** A logger whose lines a test can read back (what a service says about waiting, failing or its own mistakes). */
export function capturingLog(level = 'info'): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}
