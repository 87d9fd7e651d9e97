import { Logger } from '@nestjs/common';
import { ThrottlerStorageService } from '@nestjs/throttler';
import Redis from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { SharedRedis } from '../redis/shared-redis';
import { createThrottlerStorage, RedisThrottlerStorage, THROTTLE_KEY_PREFIX } from './redis-throttler.storage';
import { freePort } from '../../../test/support/free-port';
import { hasRedisServer, RedisServer } from '../../../test/support/redis-server';

beforeAll(() => Logger.overrideLogger(false));

describe('createThrottlerStorage', () => {
  it('keeps buckets in process without REDIS_URL', () => {
    expect(createThrottlerStorage(new SharedRedis(undefined))).toBeInstanceOf(ThrottlerStorageService);
  });
});

(hasRedisServer ? describe : describe.skip)('RedisThrottlerStorage against a real redis-server', () => {
  let server: RedisServer;
  let connections: SharedRedis[];
  let first: RedisThrottlerStorage;
  let second: RedisThrottlerStorage;
  let inspector: Redis;

  beforeAll(async () => {
    server = await RedisServer.start();
    connections = [new SharedRedis(server.url), new SharedRedis(server.url)];
    [first, second] = connections.map((redis) => new RedisThrottlerStorage(redis));
    inspector = new Redis(server.url);
  });

  afterAll(async () => {
    first?.onApplicationShutdown();
    second?.onApplicationShutdown();
    inspector?.disconnect();
    await Promise.all((connections ?? []).map((redis) => redis.close()));
    await server?.kill();
  });

  beforeEach(() => inspector.flushall());

  it('counts the hits of two processes in one bucket and blocks the one past the limit', async () => {
    const hits = [];
    for (let hit = 0; hit < 4; hit += 1) {
      hits.push(await (hit % 2 === 0 ? first : second).increment('default:account:a', 60_000, 3, 60_000, 'default'));
    }
    expect(hits.map((record) => [record.totalHits, record.isBlocked])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(hits[0].timeToExpire).toBe(60);
    expect(hits[3].timeToBlockExpire).toBe(60);
    expect(await inspector.keys('*')).toEqual([`${THROTTLE_KEY_PREFIX}{default:default:account:a}:blocked`]);
    await expect(first.increment('default:account:b', 60_000, 3, 60_000, 'default')).resolves.toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });

  it('does not count blocked hits, and starts a fresh window when the block ends', async () => {
    const key = 'default:account:c';
    await first.increment(key, 60_000, 1, 300, 'default');
    await expect(second.increment(key, 60_000, 1, 300, 'default')).resolves.toMatchObject({ isBlocked: true });
    await expect(first.increment(key, 60_000, 1, 300, 'default')).resolves.toMatchObject({
      isBlocked: true,
      totalHits: 2,
    });
    // Time is the point: the 300 ms block runs out in Redis (its key's TTL), and nothing announces it.
    await sleep(400);
    await expect(second.increment(key, 60_000, 1, 300, 'default')).resolves.toMatchObject({
      isBlocked: false,
      totalHits: 1,
    });
  });

  it('without a block duration, refuses until the window ends', async () => {
    const key = 'default:account:d';
    await first.increment(key, 300, 1, 0, 'default');
    const refused = await second.increment(key, 300, 1, 0, 'default');
    expect(refused).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
    // Time is the point: the 300 ms window runs out in Redis (its key's TTL), and nothing announces it.
    await sleep(400);
    await expect(first.increment(key, 300, 1, 0, 'default')).resolves.toMatchObject({ isBlocked: false, totalHits: 1 });
  });

  it('loads its script again on a restarted Redis (empty script cache)', async () => {
    await first.increment('default:account:e', 60_000, 5, 60_000, 'default');
    await inspector.script('FLUSH');
    await expect(first.increment('default:account:e', 60_000, 5, 60_000, 'default')).resolves.toMatchObject({
      totalHits: 2,
    });
  });
});

describe('RedisThrottlerStorage without a reachable Redis', () => {
  it('counts in process, so each replica still enforces the limit on its own', async () => {
    const redis = new SharedRedis(`redis://127.0.0.1:${await freePort()}`);
    const storage = new RedisThrottlerStorage(redis);
    const records = [];
    for (let hit = 0; hit < 3; hit += 1) records.push(await storage.increment('k', 60_000, 2, 60_000, 'default'));
    expect(records.map((record) => record.isBlocked)).toEqual([false, false, true]);
    storage.onApplicationShutdown();
    await redis.close();
  });
});
