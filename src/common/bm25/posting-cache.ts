import { LRUCache } from 'lru-cache';
import type { Postings } from './posting-list';

/** Bytes of decoded postings one thread keeps: the lists of the words its recent queries used. */
const CACHE_BYTES = 32 * 1024 * 1024;
/** Bytes per posting held: an Int32 rowid and a Float64 part. */
const POSTING_BYTES = 12;

/**
 * Decoded posting lists by (index, term), shared by every top-k search on a thread. Reading a list
 * copies its blobs out of SQLite; the words agents ask about repeat far more than whole queries do, so a
 * list is copied once and reused until it falls out of the byte budget. Lists are immutable (an index
 * never changes once built), so an entry is never stale; a reloaded network is a new index with new keys.
 */
export class PostingCache {
  private static shared?: LRUCache<string, Postings>;
  private static nextOwner = 0;
  private readonly owner = PostingCache.nextOwner++;

  /** The cached list of `term`, or the one `read` returns (kept for next time). */
  list(term: string, read: () => Postings): Postings {
    const cache = (PostingCache.shared ??= new LRUCache<string, Postings>({
      maxSize: CACHE_BYTES,
      sizeCalculation: (list) => Math.max(1, list.rowids.length * POSTING_BYTES),
    }));
    const key = `${this.owner}\u0000${term}`;
    let list = cache.get(key);
    if (list === undefined) {
      list = read();
      // A list larger than the whole budget is not kept (lru-cache would refuse it anyway).
      if (list.rowids.length * POSTING_BYTES < CACHE_BYTES) cache.set(key, list);
    }
    return list;
  }
}
