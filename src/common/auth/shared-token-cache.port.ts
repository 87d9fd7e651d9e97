import { TokenInfo } from './token-introspector.port';

/** A cached answer and how much longer it may be used. */
export interface SharedTokenEntry {
  info: TokenInfo;
  ttlMs: number;
}

/**
 * Introspection answers shared between replicas (SPEC §1), keyed by a hash of the token, never the token.
 * Adapters never throw: a store that cannot answer is a miss, and a write it cannot make is dropped.
 */
export abstract class SharedTokenCache {
  abstract get(tokenHash: string): Promise<SharedTokenEntry | undefined>;
  abstract set(tokenHash: string, info: TokenInfo, ttlMs: number): Promise<void>;
}
