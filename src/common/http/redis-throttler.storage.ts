import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { createHash } from 'node:crypto';
import { SharedRedis } from '../redis/shared-redis';

export const THROTTLE_KEY_PREFIX = 'ar:throttle:';

/**
 * One hit, atomically: a fixed window counter (KEYS[1]) that expires with the window, and a block
 * marker (KEYS[2]) set once the limit is passed. While blocked, hits are not counted; when the block
 * ends a fresh window starts, as in the library's in-memory storage.
 * ARGV: window ms, limit, block ms. Returns {hits, window ms left, blocked 0/1, block ms left}.
 */
const HIT_SCRIPT = `
local blockLeft = redis.call('PTTL', KEYS[2])
if blockLeft > 0 then
  return { tonumber(ARGV[2]) + 1, blockLeft, 1, blockLeft }
end
local hits = redis.call('INCR', KEYS[1])
local windowLeft = redis.call('PTTL', KEYS[1])
if windowLeft < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  windowLeft = tonumber(ARGV[1])
end
if hits <= tonumber(ARGV[2]) then
  return { hits, windowLeft, 0, 0 }
end
local block = tonumber(ARGV[3])
if block > 0 then
  redis.call('SET', KEYS[2], '1', 'PX', block)
  redis.call('DEL', KEYS[1])
  return { hits, windowLeft, 1, block }
end
return { hits, windowLeft, 1, windowLeft }
`;
const HIT_SCRIPT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

type HitReply = [number, number, number, number];
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const seconds = (ms: number): number => Math.max(0, Math.ceil(ms / 1000));

/**
 * Rate-limit buckets in Redis, so replicas enforce one limit together (SPEC §1, §5). When Redis cannot
 * answer, the hit is counted in this process instead: each replica then limits on its own until Redis
 * is back.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  constructor(
    private readonly redis: SharedRedis,
    private readonly local: ThrottlerStorageService = new ThrottlerStorageService(),
  ) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    // The braces are a Redis Cluster hash tag: both keys of one bucket live on one shard.
    const bucket = `${THROTTLE_KEY_PREFIX}{${throttlerName}:${key}}`;
    return this.redis.run(
      async (client) => {
        const args = [2, bucket, `${bucket}:blocked`, ttl, limit, blockDuration] as const;
        const reply = (await client.evalsha(HIT_SCRIPT_SHA, ...args).catch((error: Error) => {
          // The first call on a (re)started Redis loads the script.
          if (!error.message.includes('NOSCRIPT')) throw error;
          return client.eval(HIT_SCRIPT, ...args);
        })) as HitReply;
        const [totalHits, windowLeftMs, blocked, blockLeftMs] = reply;
        return {
          totalHits,
          timeToExpire: seconds(windowLeftMs),
          isBlocked: blocked === 1,
          timeToBlockExpire: seconds(blockLeftMs),
        };
      },
      () => this.local.increment(key, ttl, limit, blockDuration, throttlerName),
    );
  }

  onApplicationShutdown(): void {
    this.local.onApplicationShutdown();
  }
}

/** The one place that picks where rate-limit buckets live: Redis when REDIS_URL is set, else in process. */
export function createThrottlerStorage(redis: SharedRedis): ThrottlerStorage {
  return redis.enabled ? new RedisThrottlerStorage(redis) : new ThrottlerStorageService();
}
