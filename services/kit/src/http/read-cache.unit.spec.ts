import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.js';

/** A read the test finishes when it wants (a query still running while the read model changes). */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ReadCache (ADR 0040)', () => {
  it('serves a stored value until the read model changes, then reads again', async () => {
    const cache = new ReadCache<string>();
    let reads = 0;
    const read = async () => `v${(reads += 1)}`;
    expect(await cache.through('k', read)).toBe('v1');
    expect(await cache.through('k', read)).toBe('v1');
    cache.invalidate();
    expect(await cache.through('k', read)).toBe('v2');
    expect(reads).toBe(2);
  });

  it('never stores what a read that began before a change returns (the generation rule)', async () => {
    const cache = new ReadCache<string>();
    const slow = deferred<string>();
    const racing = cache.through('inbox', () => slow.promise);
    // An append commits while the read is running: the rows it read may be the old ones.
    cache.invalidate();
    slow.resolve('old rows');
    expect(await racing).toBe('old rows');
    expect(cache.get('inbox')).toBeUndefined();
    expect(cache.stats.refused).toBe(1);
    expect(await cache.through('inbox', async () => 'new rows')).toBe('new rows');
    expect(cache.get('inbox')).toBe('new rows');
  });

  it('refuses a value captured at an older generation (set)', () => {
    const cache = new ReadCache<string>();
    const generation = cache.generation;
    cache.invalidate();
    expect(cache.set('k', 'stale', generation)).toBe(false);
    expect(cache.get('k')).toBeUndefined();
    expect(cache.set('k', 'fresh', cache.generation)).toBe(true);
    expect(cache.get('k')).toBe('fresh');
  });

  it('shares one read among concurrent misses of a key, but not across a change', async () => {
    const cache = new ReadCache<string>();
    const first = deferred<string>();
    let reads = 0;
    const a = cache.through('k', () => ((reads += 1), first.promise));
    const b = cache.through('k', () => ((reads += 1), Promise.resolve('b')));
    expect(reads).toBe(1);
    cache.invalidate();
    // After the change a new read starts: the one in flight may have read the old rows.
    const c = cache.through('k', () => ((reads += 1), Promise.resolve('after')));
    first.resolve('before');
    expect(await a).toBe('before');
    expect(await b).toBe('before');
    expect(await c).toBe('after');
    expect(reads).toBe(2);
    expect(cache.get('k')).toBe('after');
  });

  it('drops entries older than maxAgeMs (the net under a lost notification)', async () => {
    let now = 0;
    const cache = new ReadCache<string>({ maxAgeMs: 5_000, now: () => now });
    await cache.through('k', async () => 'one');
    now = 5_000;
    expect(cache.get('k')).toBe('one');
    now = 5_001;
    expect(cache.get('k')).toBeUndefined();
    expect(await cache.through('k', async () => 'two')).toBe('two');
  });

  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const cache = new ReadCache<string>({ maxEntries: 2 });
    await cache.through('a', async () => 'A');
    await cache.through('b', async () => 'B');
    expect(cache.get('a')).toBe('A'); // a is now the most recently used
    await cache.through('c', async () => 'C');
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
  });

  it('does not store a failed read', async () => {
    const cache = new ReadCache<string>();
    await expect(cache.through('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(cache.size).toBe(0);
    expect(await cache.through('k', async () => 'ok')).toBe('ok');
  });
});
