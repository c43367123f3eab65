import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { afterCommit } from './commit-hooks.js';
import type { Database } from './database.js';

/** The channel a service's read-model changes are announced on (one per schema). */
export const readModelChannel = (schema: string) => `readmodel_${schema}`;

/**
 * `pg_notify(readmodel_<schema>, <origin>)`, to put in a statement the changing transaction runs anyway (no round trip
 * of its own). Postgres delivers it at commit, and once per transaction however many rows call it. The payload names
 * the database handle that changed it, whose own listeners heard of it at commit already (`changedWithin`).
 */
export const notifyReadModel = (database: Database<any>): RawBuilder<unknown> =>
  sql`pg_notify(${readModelChannel(database.schema)}, ${readModelChanges(database).origin})`;

/**
 * Who hears that a service's read model changed (ADR 0040): listeners of this process right after the commit of a
 * change made here (read-your-writes: `changedWithin`), and, through LISTEN, the commits of every other process on
 * the same schema (their statements carry `notifyReadModel`). What changes the read model: an append (its inline
 * projections), a consumer's effect (local copies), a rebuild's swap — the kit does all three.
 */
export class ReadModelChanges {
  private readonly listeners = new Set<() => void>();
  /** This handle's NOTIFY payload: its own notifications come back to it and are not heard twice. */
  readonly origin = randomUUID();

  constructor(private readonly database: Database<any>) {}

  /** Inside the transaction that changed read-model tables: this process's listeners hear of it once it commits. */
  async changedWithin(trx: Kysely<any>): Promise<void> {
    if (this.listeners.size === 0) return;
    await afterCommit(trx, () => this.emit());
  }

  /**
   * Calls `listener` after every change: this process's at its commit, other processes' when their NOTIFY arrives
   * (and whenever the listening connection comes back, since notifications may have been lost meanwhile). Resolves
   * once listening; the returned function stops.
   */
  async subscribe(listener: () => void): Promise<() => Promise<void>> {
    this.listeners.add(listener);
    const unlisten = await this.database.listen(readModelChannel(this.database.schema), (payload) => {
      if (payload !== this.origin) listener();
    });
    return async () => {
      this.listeners.delete(listener);
      await unlisten();
    };
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

const changes = new WeakMap<Database<any>, ReadModelChanges>();

/** The read-model changes of `database` (one per handle, shared by its store, consumers and caches). */
export function readModelChanges(database: Database<any>): ReadModelChanges {
  let found = changes.get(database);
  if (!found) {
    found = new ReadModelChanges(database);
    changes.set(database, found);
  }
  return found;
}
