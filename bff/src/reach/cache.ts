/**
 * A small LRU of values tagged with what they show (owner id and username, question ids), so a change that evicts
 * the pages (pages/events.ts) drops the images and feeds that show the same thing. Bounded by entries and bytes.
 */
export class TaggedLru<V extends { bytes: number }> {
  private readonly entries = new Map<string, { value: V; tags: string[]; expires: number }>();
  private size = 0;

  constructor(
    private readonly opts: { maxEntries: number; maxBytes: number; ttlMs?: number; now?: () => number },
  ) {}

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires <= (this.opts.now ?? Date.now)()) {
      this.delete(key);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, tags: readonly string[]): void {
    this.delete(key);
    const expires = this.opts.ttlMs === undefined ? Infinity : (this.opts.now ?? Date.now)() + this.opts.ttlMs;
    this.entries.set(key, { value, tags: tags.map((t) => t.toLowerCase()), expires });
    this.size += value.bytes;
    while (this.entries.size > this.opts.maxEntries || this.size > this.opts.maxBytes) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.delete(oldest);
    }
  }

  /** Drops every entry showing one of `tags` (or, with `all`, everything; with `byKey`, the entries named). */
  evict(tags: readonly string[], all = false, byKey = false): void {
    if (byKey) {
      for (const key of tags) this.delete(key);
      return;
    }
    const wanted = new Set(tags.map((t) => t.toLowerCase()));
    for (const [key, entry] of [...this.entries])
      if (all || entry.tags.some((t) => wanted.has(t))) this.delete(key);
  }

  private delete(key: string): void {
    const hit = this.entries.get(key);
    if (!hit) return;
    this.size -= hit.value.bytes;
    this.entries.delete(key);
  }
}

/** What the reach caches hold: an image, or a feed with its compressed copies. */
export interface Bytes {
  bytes: number;
  body: Buffer;
  etag: string;
  /** When an image's answer or profile was last seen public with this hash. */
  checkedAt?: number;
  lastModified?: string;
  /** A feed's compressed copies (made once per cached feed; an image is not compressible). */
  br?: Buffer;
  gzip?: Buffer;
}

/** The reach routes' 404 body. */
export const NOT_FOUND = { message: 'Not found', code: 'NOT_FOUND' };
