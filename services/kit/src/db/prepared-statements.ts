import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * Server-side prepared statements for the statements a service sends again and again (ADR 0051).
 *
 * Kysely sends every query as an unnamed statement, so Postgres parses, analyses and plans it on every execution. For
 * a short statement that is most of its cost: the ask's owner read takes ~0.9 ms of the backend's CPU unnamed and
 * ~0.05 ms named (same statement, same data). A pooled client here names a statement once its text has been seen
 * `threshold` times in this process: each connection then parses it once and later only binds and executes it, and
 * Postgres may keep a generic plan for it (its `plan_cache_mode` decides, as for any prepared statement).
 *
 * Only statements with parameters are named (a query without values goes by the simple protocol: `BEGIN`, `COMMIT`,
 * `LISTEN`, DDL). The number of names is capped per process, so statements whose text varies (an `in (…)` list's
 * length) cannot grow the connections' memory without bound: past the cap, new texts stay unnamed.
 */
export class StatementNames {
  private readonly seen = new Map<string, number>();
  private readonly names = new Map<string, string>();

  constructor(
    private readonly opts: { threshold: number; maxNames: number; maxTracked: number } = {
      threshold: 3,
      // A prepared join with its generic plan holds ~80 KB in its backend: 100 names cap a pool of 10 at ~80 MB.
      maxNames: 100,
      maxTracked: 5_000,
    },
  ) {}

  /** The name to prepare `text` under, or undefined while it stays unnamed. */
  nameFor(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= this.opts.maxNames) return name;
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count < this.opts.threshold) {
      // Texts seen once or twice are forgotten in bulk when there are too many of them: a burst of one-off texts
      // costs a map, never unbounded memory.
      if (this.seen.size >= this.opts.maxTracked) this.seen.clear();
      this.seen.set(text, count);
      return undefined;
    }
    this.seen.delete(text);
    const named = `k${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    this.names.set(text, named);
    return named;
  }

  /** How many texts are named. */
  get size(): number {
    return this.names.size;
  }
}

/** "cached plan must not change result type": a migration changed a table a prepared `SELECT *` reads. */
const isStalePlan = (error: unknown) =>
  (error as { code?: unknown })?.code === '0A000' && /cached plan must not change result type/.test(String((error as Error).message));

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Makes `client` prepare the statements `names` picks (see `StatementNames`). A migration that changes the columns a
 * prepared `SELECT *` returns makes Postgres refuse its cached plan ("cached plan must not change result type"); the
 * client then prepares its statements again under fresh names. A statement outside a transaction is retried at once
 * under its new name, so the caller sees nothing; one inside a transaction fails it, as any failed statement does
 * (the transaction is aborted by then), and the next runs on the new shape. Callbacks and query objects pass through.
 */
export function prepareRepeatedStatements(client: pg.ClientBase, names: StatementNames): void {
  // The prototype's query, looked up at each call: a wrapper installed on it later (`statementsOf`) still applies.
  const proto = Object.getPrototypeOf(client) as { query: QueryFn };
  const query: QueryFn = (...args) => proto.query.apply(client, args);
  // The session's transaction status from Postgres's last ReadyForQuery: 'I' idle, 'T' in a transaction, 'E' failed.
  let status = 'I';
  (client as unknown as { connection: NodeJS.EventEmitter }).connection.on('readyForQuery', (message: { status: string }) => {
    status = message.status;
  });
  let generation = 0;
  const named = (name: string, text: string, values: unknown[]) =>
    query({ name: generation === 0 ? name : `${name}_${generation}`, text, values }) as Promise<unknown>;
  (client as unknown as { query: QueryFn }).query = (config: unknown, values?: unknown, callback?: unknown) => {
    if (typeof config !== 'string' || !Array.isArray(values) || values.length === 0 || callback !== undefined)
      return query(config, values, callback);
    const name = names.nameFor(config);
    if (name === undefined) return query(config, values);
    const outsideTransaction = status === 'I';
    return named(name, config, values).catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      generation += 1;
      if (outsideTransaction) return named(name, config, values);
      throw error;
    });
  };
}
