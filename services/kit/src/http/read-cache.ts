import type { Database } from '../db/database.js';
import { readModelChanges } from '../db/read-model-changes.js';

export interface ReadCacheOptions {
  /** Entries kept; the least recently used goes first. Default 10,000. */
  maxEntries?: number;
  /**
   * An entry older than this is read again (ms). Default 5,000: the safety net for a lost notification — the
   * changes of this process are never missed, another instance's NOTIFY could be (ADR 0040).
   */
  maxAgeMs?: number;
  /** Milliseconds, monotonic (tests). */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  storedAt: number;
}

/**
 * A cache of read results (a list's serialised response) that is correct, not just short-lived (ADR 0040):
 *
 * - every change of the read model bumps the `generation` and drops every entry (`invalidate`, wired to the
 *   service's `ReadModelChanges` by `subscribe`);
 * - a read stores its result only if the generation it captured *before* reading is still current: a read that
 *   raced a change may have seen the old rows, and keeping them would outlive the change;
 * - concurrent misses of one key in one generation share one read.
 *
 * The key must name everything the result depends on — above all who is asking: a key without the caller's id
 * would hand one person's list to another.
 */
export class ReadCache<V> {
  private readonly maxEntries: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  /** Map order is use order: the first entry is the least recently used. */
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, { generation: number; promise: Promise<V> }>();
  private current = 0;
  readonly stats = { hits: 0, misses: 0, stored: 0, refused: 0 };

  constructor(options: ReadCacheOptions = {}) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.maxAgeMs = options.maxAgeMs ?? 5_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Bumped by every change of the read model. */
  get generation(): number {
    return this.current;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The read model changed: nothing cached so far may be served, and no read begun so far may store. */
  invalidate(): void {
    this.current += 1;
    this.entries.clear();
    this.loading.clear();
  }

  /** The fresh entry of `key`, if any. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() - entry.storedAt > this.maxAgeMs) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value`, read after `generation` was captured, unless the read model changed since. */
  set(key: string, value: V, generation: number): boolean {
    if (generation !== this.current) {
      this.stats.refused += 1;
      return false;
    }
    this.entries.delete(key);
    this.entries.set(key, { value, storedAt: this.now() });
    this.stats.stored += 1;
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    return true;
  }

  /** The cached value of `key`, or `read()`'s — stored only if no change happened while it read. */
  async through(key: string, read: () => Promise<V>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) {
      this.stats.hits += 1;
      return hit;
    }
    this.stats.misses += 1;
    const generation = this.current;
    const inFlight = this.loading.get(key);
    // A read of this generation began before this request and no change has happened since: its result will do.
    if (inFlight && inFlight.generation === generation) return inFlight.promise;
    const promise = read();
    this.loading.set(key, { generation, promise });
    try {
      const value = await promise;
      this.set(key, value, generation);
      return value;
    } finally {
      if (this.loading.get(key)?.promise === promise) this.loading.delete(key);
    }
  }

  /** Invalidates on every change of `database`'s read model (this process's and other instances'). */
  subscribe(database: Database<any>): Promise<() => Promise<void>> {
    return readModelChanges(database).subscribe(() => this.invalidate());
  }
}
