import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { TokenInfo, TokenIntrospector } from './token-introspector.port';

export interface CacheOptions {
  maxEntries: number;
  /** Upper bound for an active token's cache life, seconds (≤ 60). */
  ttlSeconds: number;
  /** Cache life of an inactive answer, seconds. */
  negativeTtlSeconds: number;
}

/**
 * Bounded LRU in front of an introspector: active tokens until `exp` (capped), inactive ones briefly.
 * Keys are token hashes so raw tokens never sit in memory longer than a request.
 */
export class CachingIntrospector extends TokenIntrospector {
  private readonly cache: LRUCache<string, TokenInfo>;
  private readonly inFlight = new Map<string, Promise<TokenInfo>>();

  constructor(
    private readonly inner: TokenIntrospector,
    private readonly options: CacheOptions,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.cache = new LRUCache({ max: options.maxEntries, ttlAutopurge: false });
  }

  async introspect(token: string): Promise<TokenInfo> {
    const key = createHash('sha256').update(token).digest('base64url');
    const cached = this.cache.get(key);
    if (cached) return cached;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const lookup = this.inner
      .introspect(token)
      .then((info) => {
        const ttlMs = this.ttlMs(info);
        if (ttlMs > 0) this.cache.set(key, info, { ttl: ttlMs });
        return info;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, lookup);
    return lookup;
  }

  private ttlMs(info: TokenInfo): number {
    if (!info.active) return this.options.negativeTtlSeconds * 1000;
    const cap = this.options.ttlSeconds * 1000;
    if (info.expiresAt === undefined) return cap;
    return Math.max(0, Math.min(cap, info.expiresAt * 1000 - this.now()));
  }
}
