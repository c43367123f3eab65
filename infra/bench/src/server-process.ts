/**
 * Runs one of the benchmark's servers in a process of its own, as it is deployed: `src/targets.ts` starts the bare
 * route and the BFF with `startServerProcess`, each prints one JSON line with its URL and serves until killed.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ServerProcess {
  urls: Record<string, string>;
  stop: () => Promise<void>;
}

/**
 * Starts `script` (a sibling in dist/) with `config` as JSON in `BENCH_SERVER_CONFIG`; resolves with the URLs it prints.
 * `BENCH_SERVER_NODE_ARGS` adds Node options to the server processes (and to targets.ts itself when run.ts starts it),
 * e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile each server on its own.
 */
export async function startServerProcess(script: string, config: Record<string, unknown>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...serverNodeArgs(), fileURLToPath(new URL(script, import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_SERVER_CONFIG: JSON.stringify(config) },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const urls = await new Promise<Record<string, string>>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Record<string, string>));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    urls,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function serverNodeArgs(): string[] {
  return (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

/** In a server process: its config, and a way to print its URLs and close on SIGTERM. */
export function serverConfig<T>(): T {
  const raw = process.env.BENCH_SERVER_CONFIG;
  if (!raw) throw new Error('BENCH_SERVER_CONFIG is not set: this script is started by src/targets.ts');
  return JSON.parse(raw) as T;
}

export function serve(urls: Record<string, string>, close: () => Promise<void>): void {
  process.stdout.write(`${JSON.stringify(urls)}\n`);
  const shutdown = () => void close().finally(() => process.exit(0));
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
