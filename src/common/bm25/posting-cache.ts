import { LRUCache } from 'lru-cache';

/** Bytes of decoded postings one thread keeps: the pages of the words its recent queries used. */
const CACHE_BYTES = 32 * 1024 * 1024;

interface Entry {
  value: unknown;
  bytes: number;
}

/**
 * Decoded postings (a term's header, a page of its postings) by index and key, shared by every top-k
 * search on a thread. Reading copies blobs out of SQLite; the words agents ask about repeat far more
 * than whole queries do, so a page is copied once and reused until it falls out of the byte budget.
 * Postings are immutable (an index never changes once built), so an entry is never stale; a reloaded
 * network is a new index with new keys.
 */
export class PostingCache {
  private static shared?: LRUCache<string | number, Entry>;
  private static nextOwner = 0;
  private readonly owner = PostingCache.nextOwner++;

  /**
   * The cached value of `key`, or the one `read` returns (kept for next time, `bytes` of it counted). A
   * numeric key (a page id, below 2^32) avoids building a string on the hot path.
   */
  get<T>(key: string | number, read: () => T, bytes: (value: T) => number): T {
    const cache = (PostingCache.shared ??= new LRUCache<string | number, Entry>({
      maxSize: CACHE_BYTES,
      sizeCalculation: (entry) => entry.bytes,
    }));
    const owned = typeof key === 'number' ? this.owner * 2 ** 32 + key : `${this.owner}\u0000${key}`;
    const known = cache.get(owned);
    if (known !== undefined) return known.value as T;
    const value = read();
    const size = Math.max(1, bytes(value));
    // A value larger than the whole budget is not kept (lru-cache would refuse it anyway).
    if (size < CACHE_BYTES) cache.set(owned, { value, bytes: size });
    return value;
  }
}
