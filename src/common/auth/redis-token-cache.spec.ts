import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { SharedRedis } from '../redis/shared-redis';
import { CachingIntrospector, tokenHash } from './caching.introspector';
import { INTROSPECTION_KEY_PREFIX, RedisTokenCache } from './redis-token-cache';
import { TokenInfo, TokenIntrospector } from './token-introspector.port';
import { freePort } from '../../../test/support/free-port';
import { hasRedisServer, RedisServer } from '../../../test/support/redis-server';
import { mockPort } from '../../../test/support/unit/mocks';

const TOKEN = 'ory_at_secret-token-value';
const user: TokenInfo = { active: true, accountId: 'u-1', accountType: 'user', expiresAt: 2_000_000_000 };

beforeAll(() => Logger.overrideLogger(false));

(hasRedisServer ? describe : describe.skip)('RedisTokenCache against a real redis-server', () => {
  let server: RedisServer;
  let redis: SharedRedis;
  let cache: RedisTokenCache;
  let inspector: Redis;

  beforeAll(async () => {
    server = await RedisServer.start();
    redis = new SharedRedis(server.url);
    cache = new RedisTokenCache(redis);
    inspector = new Redis(server.url);
  });

  afterAll(async () => {
    inspector?.disconnect();
    await redis?.close();
    await server?.kill();
  });

  beforeEach(() => inspector.flushall());

  it('stores the answer under ar:introspect:<token hash> with the TTL it was given', async () => {
    await cache.set(tokenHash(TOKEN), user, 30_000);
    const key = `${INTROSPECTION_KEY_PREFIX}${tokenHash(TOKEN)}`;
    expect(await inspector.keys('*')).toEqual([key]);
    expect(await inspector.pttl(key)).toBeGreaterThan(29_000);
    const stored = (await inspector.get(key))!;
    expect(JSON.parse(stored)).toEqual(user);
    expect(`${key} ${stored}`).not.toContain(TOKEN);
    const entry = await cache.get(tokenHash(TOKEN));
    expect(entry?.info).toEqual(user);
    expect(entry?.ttlMs).toBeGreaterThan(29_000);
    expect(entry?.ttlMs).toBeLessThanOrEqual(30_000);
  });

  it('treats a foreign value, or a key without expiry, as a miss', async () => {
    const key = `${INTROSPECTION_KEY_PREFIX}${tokenHash(TOKEN)}`;
    await inspector.set(key, '{"active":"yes","accountId":7}', 'PX', 10_000);
    await expect(cache.get(tokenHash(TOKEN))).resolves.toBeUndefined();
    await inspector.set(key, 'not json', 'PX', 10_000);
    await expect(cache.get(tokenHash(TOKEN))).resolves.toBeUndefined();
    await inspector.set(key, JSON.stringify(user));
    await expect(cache.get(tokenHash(TOKEN))).resolves.toBeUndefined();
  });

  it('lets two processes (two connections) introspect a token once between them, inactive ones too', async () => {
    const other = new SharedRedis(server.url);
    const options = { maxEntries: 100, ttlSeconds: 60, negativeTtlSeconds: 5 };
    const inner = mockPort(TokenIntrospector, {
      introspect: async (token: string) =>
        token === TOKEN ? user : { active: false, accountId: '', accountType: 'anonymous' },
    });
    const first = new CachingIntrospector(inner, options, { shared: new RedisTokenCache(redis) });
    const second = new CachingIntrospector(inner, options, { shared: new RedisTokenCache(other) });
    await expect(first.introspect(TOKEN)).resolves.toEqual(user);
    await expect(second.introspect(TOKEN)).resolves.toEqual(user);
    await expect(first.introspect('revoked')).resolves.toMatchObject({ active: false });
    await expect(second.introspect('revoked')).resolves.toMatchObject({ active: false });
    expect(inner.introspect).toHaveBeenCalledTimes(2);
    expect(await inspector.pttl(`${INTROSPECTION_KEY_PREFIX}${tokenHash('revoked')}`)).toBeLessThanOrEqual(5000);
    await other.close();
  });
});

describe('RedisTokenCache without a reachable Redis', () => {
  it('misses and drops writes, without throwing', async () => {
    const redis = new SharedRedis(`redis://127.0.0.1:${await freePort()}`);
    const cache = new RedisTokenCache(redis);
    await expect(cache.set(tokenHash(TOKEN), user, 30_000)).resolves.toBeUndefined();
    await expect(cache.get(tokenHash(TOKEN))).resolves.toBeUndefined();
    await redis.close();
  });
});
