import { SharedRedis } from '../redis/shared-redis';
import { SharedTokenCache, SharedTokenEntry } from './shared-token-cache.port';
import { TokenInfo } from './token-introspector.port';

export const INTROSPECTION_KEY_PREFIX = 'ar:introspect:';

/** Only a well-formed answer is trusted; anything else in the key is treated as a miss. */
function parseTokenInfo(raw: string | null): TokenInfo | undefined {
  if (raw === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const info = value as Partial<TokenInfo> | null;
  if (typeof info !== 'object' || info === null) return undefined;
  if (typeof info.active !== 'boolean' || typeof info.accountId !== 'string') return undefined;
  if (typeof info.accountType !== 'string') return undefined;
  if (info.expiresAt !== undefined && typeof info.expiresAt !== 'number') return undefined;
  return { active: info.active, accountId: info.accountId, accountType: info.accountType, expiresAt: info.expiresAt };
}

/** Introspection answers in Redis under `ar:introspect:<sha-256 of the token>`, expiring with the answer. */
export class RedisTokenCache extends SharedTokenCache {
  constructor(private readonly redis: SharedRedis) {
    super();
  }

  get(tokenHash: string): Promise<SharedTokenEntry | undefined> {
    const key = INTROSPECTION_KEY_PREFIX + tokenHash;
    return this.redis.run(
      async (client) => {
        const replies = await client.multi().get(key).pttl(key).exec();
        if (!replies || replies.some(([error]) => error)) return undefined;
        const info = parseTokenInfo(replies[0][1] as string | null);
        const ttlMs = replies[1][1] as number;
        // PTTL is -2 for a key that expired between the two reads and -1 for one without expiry (not ours).
        return info && ttlMs > 0 ? { info, ttlMs } : undefined;
      },
      () => undefined,
    );
  }

  set(tokenHash: string, info: TokenInfo, ttlMs: number): Promise<void> {
    const value = JSON.stringify({
      active: info.active,
      accountId: info.accountId,
      accountType: info.accountType,
      expiresAt: info.expiresAt,
    });
    return this.redis.run(
      async (client) => {
        await client.set(INTROSPECTION_KEY_PREFIX + tokenHash, value, 'PX', Math.ceil(ttlMs));
      },
      () => undefined,
    );
  }
}
