import net from 'node:net';

/** Resolves after `ms`, or at once when `signal` aborts (the caller then finds the run interrupted). */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Polls `check` until it returns a value other than null/undefined/false, or throws `message` after `timeoutMs`. */
export async function pollUntil<T>(
  check: () => Promise<T | null | undefined | false>,
  opts: { timeoutMs: number; intervalMs?: number; message: () => string; signal?: AbortSignal },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      const value = await check();
      if (value !== null && value !== undefined && value !== false) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError
        ? ` (last error: ${lastError instanceof Error ? lastError.message : JSON.stringify(lastError)})`
        : '';
      throw new Error(`${opts.message()} — gave up after ${opts.timeoutMs} ms${cause}`);
    }
    await sleep(opts.intervalMs ?? 100);
  }
}

/** A port nobody listens on right now (the kernel picks it; a tiny race with other programs is accepted). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not get a free port'))));
    });
  });
}
