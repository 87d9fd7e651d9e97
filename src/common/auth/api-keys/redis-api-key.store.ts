import { LRUCache } from 'lru-cache';
import { AppException } from '../../errors/app.exception';
import { SharedRedis } from '../../redis/shared-redis';
import { ApiKeyRecord, parseApiKeyRecord } from './api-key-record';
import { ApiKeyStore } from './api-key.store';
import { ApiKeyErrors } from './api-keys.errors';

export const API_KEY_PREFIX_REDIS = 'ar:api-key:';
export const API_KEY_INDEX = 'ar:api-keys';
/** Records this replica read last, for keys it already knows while Redis is down. */
const LAST_KNOWN_MAX = 10_000;

// The record's fixed part is one JSON field; the two that change later are fields of their own, so a
// use and a revocation written at once by two replicas never overwrite each other.
const REVOKE = `if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
redis.call('HSETNX', KEYS[1], 'revokedAt', ARGV[1])
return redis.call('HGETALL', KEYS[1])`;
const TOUCH = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1]) end
return 1`;

const redisKey = (keyId: string): string => API_KEY_PREFIX_REDIS + keyId;

const unavailable = (): never => {
  throw new AppException(ApiKeyErrors.StoreUnavailable, 'Redis is unavailable');
};

/** A hash as HGETALL answers it (an object, or a flat field/value list from a script); undefined when empty. */
function recordFromHash(fields: Record<string, string> | string[]): ApiKeyRecord | undefined {
  const hash: Record<string, string> = {};
  if (Array.isArray(fields))
    for (let index = 0; index + 1 < fields.length; index += 2) hash[fields[index]] = fields[index + 1];
  else Object.assign(hash, fields);
  if (!hash.record) return undefined;
  let fixed: unknown;
  try {
    fixed = JSON.parse(hash.record);
  } catch {
    return undefined;
  }
  const changing = { lastUsedAt: Number(hash.lastUsedAt) || undefined, revokedAt: Number(hash.revokedAt) || undefined };
  return parseApiKeyRecord({ ...(fixed as object), ...changing });
}

/**
 * Keys in Redis: a hash `ar:api-key:<key id>` per key (`record`, `lastUsedAt`, `revokedAt`) and the set
 * `ar:api-keys` of ids for listing. While Redis is down, a key this replica has read before is answered
 * from that last read (its revocation included, if it saw one); any other lookup or change is a 503.
 */
export class RedisApiKeyStore extends ApiKeyStore {
  private readonly lastKnown = new LRUCache<string, ApiKeyRecord | false>({ max: LAST_KNOWN_MAX });

  constructor(private readonly redis: SharedRedis) {
    super();
  }

  find(keyId: string): Promise<ApiKeyRecord | undefined> {
    return this.redis.run(
      async (client) => {
        const record = recordFromHash(await client.hgetall(redisKey(keyId)));
        this.lastKnown.set(keyId, record ?? false);
        return record;
      },
      () => {
        const known = this.lastKnown.get(keyId);
        return known === undefined ? unavailable() : known || undefined;
      },
    );
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.redis.run(async (client) => {
      const ids = await client.smembers(API_KEY_INDEX);
      const pipeline = client.pipeline();
      for (const id of ids) pipeline.hgetall(redisKey(id));
      const replies = (await pipeline.exec()) ?? [];
      return replies.flatMap(([error, fields]) => {
        const record = error ? undefined : recordFromHash(fields as Record<string, string>);
        return record ? [record] : [];
      });
    }, unavailable);
  }

  async create(record: ApiKeyRecord): Promise<void> {
    const { lastUsedAt: _used, revokedAt: _revoked, ...fixed } = record;
    const created = await this.redis.run(async (client) => {
      const replies = await client
        .multi()
        .hsetnx(redisKey(record.keyId), 'record', JSON.stringify(fixed))
        .sadd(API_KEY_INDEX, record.keyId)
        .exec();
      if (!replies || replies.some(([error]) => error)) throw new Error('MULTI failed');
      return replies[0][1] === 1;
    }, unavailable);
    // Thrown here, not inside the operation, where SharedRedis would take it for an outage.
    if (!created) throw new AppException(ApiKeyErrors.StoreUnavailable, 'key id taken; try again');
  }

  revoke(keyId: string, at: number): Promise<ApiKeyRecord | undefined> {
    return this.redis.run(async (client) => {
      const fields = (await client.eval(REVOKE, 1, redisKey(keyId), String(at))) as string[];
      const record = recordFromHash(fields);
      this.lastKnown.set(keyId, record ?? false);
      return record;
    }, unavailable);
  }

  touch(keyId: string, at: number): Promise<void> {
    return this.redis.run(
      async (client) => {
        await client.eval(TOUCH, 1, redisKey(keyId), String(at));
      },
      () => undefined,
    );
  }

  /** The connection belongs to whoever created `redis`, which closes it. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
