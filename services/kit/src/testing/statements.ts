import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** The statements sent by the function being measured (its async context and everything it started). */
const measuring = new AsyncLocalStorage<string[]>();
let patched = false;

function textOf(config: unknown): string {
  if (typeof config === 'string') return config;
  if (config && typeof config === 'object' && 'text' in config) return String((config).text);
  return String(config);
}

/** Wraps `pg.Client#query` once: every pooled or dedicated client of this process goes through it. */
function patch(): void {
  if (patched) return;
  patched = true;
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    measuring.getStore()?.push(textOf(args[0]));
    return query.apply(this, args);
  };
}

/**
 * The SQL statements (`BEGIN` and `COMMIT` included) that `fn` sends to Postgres through any `pg` client of this
 * process — a Kysely handle, a pool, a raw client — and only those: the work of other callers running meanwhile (a
 * relay woken by a commit, a scheduler's poll) runs in another async context and is not counted. Each statement is
 * one round trip, so this is the deterministic figure for "fewer round trips" (ADR 0042).
 */
export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  patch();
  const statements: string[] = [];
  const result = await measuring.run(statements, fn);
  return { result, statements };
}
