import type { Logger } from 'pino';

export interface StartupRetryOptions {
  /** Give up (and exit) after this long. Default 120 s: long enough for a database or NATS restart, short enough to notice a wrong URL. */
  timeoutMs?: number;
  /** First wait; doubles after each failure. Default 250 ms. */
  initialDelayMs?: number;
  /** Longest wait between attempts. Default 5 s. */
  maxDelayMs?: number;
}

const reasonOf = (err: unknown): string => {
  if (err instanceof AggregateError && err.errors.length > 0) return reasonOf(err.errors[0]);
  if (err instanceof Error)
    return (err as Error & { code?: string }).code
      ? `${(err as Error & { code?: string }).code}: ${err.message}`
      : err.message;
  return String(err);
};

/**
 * Tries `connect` until it succeeds, waiting longer after each failure and logging why it waits, so a service started
 * before its Postgres or NATS (compose, a rolling restart) comes up by itself instead of exiting at once.
 */
export async function waitUntilReachable<T>(
  what: string,
  connect: () => Promise<T>,
  log: Logger,
  opts: StartupRetryOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  let delay = opts.initialDelayMs ?? 250;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const connected = await connect();
      if (attempt > 1) log.info({ attempts: attempt }, `${what} is reachable`);
      return connected;
    } catch (err) {
      const reason = reasonOf(err);
      if (Date.now() + delay > deadline) {
        throw new Error(
          `${what} was not reachable within ${Math.round(timeoutMs / 1000)} s (${attempt} attempts): ${reason}`,
          { cause: err },
        );
      }
      log.warn({ reason, attempt, retryInMs: delay }, `waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, opts.maxDelayMs ?? 5_000);
    }
  }
}
