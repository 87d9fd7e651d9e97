import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { SharedTokenCache } from './shared-token-cache.port';
import { AuthorityAdmission, TokenInfo, TokenIntrospector } from './token-introspector.port';

export interface CacheOptions {
  maxEntries: number;
  /** Upper bound for an active token's cache life, seconds (≤ 60). */
  ttlSeconds: number;
  /** Cache life of an inactive answer, seconds. */
  negativeTtlSeconds: number;
}

export interface CachingDependencies {
  /** The cache replicas share (Redis); the in-process LRU stays in front of it and alone without it. */
  shared?: SharedTokenCache;
  now?: () => number;
}

/** The cache key of a token: its SHA-256, so no cache (in process or shared) ever holds the token itself. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Bounded LRU in front of an introspector: active tokens until `exp` (capped), inactive ones briefly.
 * With a shared cache, a miss here asks it before the introspector, and a fresh answer is written to
 * both, so replicas introspect a token once between them.
 */
export class CachingIntrospector extends TokenIntrospector {
  private readonly cache: LRUCache<string, TokenInfo>;
  private readonly inFlight = new Map<string, Promise<TokenInfo>>();
  private readonly shared?: SharedTokenCache;
  private readonly now: () => number;

  constructor(
    private readonly inner: TokenIntrospector,
    private readonly options: CacheOptions,
    dependencies: CachingDependencies = {},
  ) {
    super();
    this.cache = new LRUCache({ max: options.maxEntries, ttlAutopurge: false });
    this.shared = dependencies.shared;
    this.now = dependencies.now ?? Date.now;
  }

  /**
   * `admit` is asked only when neither cache knows the token and no lookup of it is already under way.
   * A caller that joins a lookup shares its outcome, a refused admission included (a 429 it may retry).
   */
  async introspect(token: string, admit?: AuthorityAdmission): Promise<TokenInfo> {
    const key = tokenHash(token);
    const cached = this.cache.get(key);
    if (cached) return cached;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const lookup = this.lookup(key, token, admit).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, lookup);
    return lookup;
  }

  private async lookup(key: string, token: string, admit?: AuthorityAdmission): Promise<TokenInfo> {
    const shared = await this.shared?.get(key);
    // Another replica's settings may differ: this one's rules still bound how long an answer is used.
    const sharedTtlMs = shared ? Math.min(shared.ttlMs, this.ttlMs(shared.info)) : 0;
    if (shared && sharedTtlMs > 0) {
      this.cache.set(key, shared.info, { ttl: sharedTtlMs });
      return shared.info;
    }
    await admit?.();
    const info = await this.inner.introspect(token);
    const ttlMs = this.ttlMs(info);
    if (ttlMs > 0) {
      this.cache.set(key, info, { ttl: ttlMs });
      await this.shared?.set(key, info, ttlMs);
    }
    return info;
  }

  private ttlMs(info: TokenInfo): number {
    if (!info.active) return this.options.negativeTtlSeconds * 1000;
    const cap = this.options.ttlSeconds * 1000;
    if (info.expiresAt === undefined) return cap;
    return Math.max(0, Math.min(cap, info.expiresAt * 1000 - this.now()));
  }
}
