import { Logger } from '@nestjs/common';
import { SharedRedis } from './shared-redis';
import { freePort } from '../../../test/support/free-port';
import { hasRedisServer, RedisServer } from '../../../test/support/redis-server';
import { until } from '../../../test/support/until';

/** Log lines about Redis, by level, as the service's logger would receive them. */
function captureLogs(): { warnings: () => string[]; infos: () => string[] } {
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  const about = (spy: jest.SpyInstance) => () =>
    spy.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('Redis'));
  return { warnings: about(warn), infos: about(log) };
}

afterEach(() => jest.restoreAllMocks());

describe('SharedRedis without REDIS_URL', () => {
  it('is disabled and always answers from the fallback', async () => {
    const redis = new SharedRedis(undefined);
    const operation = jest.fn(async () => 'from redis');
    expect(redis.enabled).toBe(false);
    await expect(redis.run(operation, () => 'local')).resolves.toBe('local');
    expect(operation).not.toHaveBeenCalled();
    await redis.close();
  });
});

describe('SharedRedis with an unreachable Redis', () => {
  it('answers from the fallback at once and warns once, however many calls fail', async () => {
    const logs = captureLogs();
    const redis = new SharedRedis(`redis://127.0.0.1:${await freePort()}`);
    const operation = jest.fn(async () => 'from redis');
    const answers = await Promise.all(Array.from({ length: 20 }, () => redis.run(operation, () => 'local')));
    expect(answers).toEqual(Array(20).fill('local'));
    expect(operation).not.toHaveBeenCalled();
    expect(logs.warnings()).toHaveLength(1);
    expect(logs.warnings()[0]).toMatch(/^Redis unavailable \(.+\); shared state falls back to this process/);
    await redis.close();
  });
});

(hasRedisServer ? describe : describe.skip)('SharedRedis against a real redis-server', () => {
  let server: RedisServer;

  beforeAll(async () => {
    server = await RedisServer.start();
  });

  afterAll(async () => {
    await server?.kill();
  });

  it('runs the operation on Redis while it is reachable', async () => {
    const redis = new SharedRedis(server.url);
    await expect(
      redis.run(
        async (client) => client.ping(),
        () => 'local',
      ),
    ).resolves.toBe('PONG');
    await redis.close();
  });

  it('falls back when a command fails, warns once, and leaves Redis alone for a moment', async () => {
    const logs = captureLogs();
    let time = 0;
    const redis = new SharedRedis(server.url, () => time);
    const failing = jest.fn(async () => Promise.reject(new Error('command timed out')));
    await expect(redis.run(failing, () => 'local')).resolves.toBe('local');
    await expect(redis.run(failing, () => 'local')).resolves.toBe('local');
    expect(failing).toHaveBeenCalledTimes(1);
    time += 5000;
    await expect(
      redis.run(
        async (client) => client.ping(),
        () => 'local',
      ),
    ).resolves.toBe('PONG');
    expect(logs.warnings()).toEqual([
      'Redis unavailable (command timed out); shared state falls back to this process until it is back',
    ]);
    expect(logs.infos()).toEqual(['Redis reachable again; shared state resumes']);
    await redis.close();
  });

  it('survives Redis being killed and restarted: one warning, fallback meanwhile, Redis again after', async () => {
    const logs = captureLogs();
    const redis = new SharedRedis(server.url);
    const ping = (client: { ping(): Promise<string> }) => client.ping();
    await expect(redis.run(ping, () => 'local')).resolves.toBe('PONG');
    await server.kill();
    await until('the client noticed the outage', () => logs.warnings().length > 0);
    for (let call = 0; call < 10; call += 1) await expect(redis.run(ping, () => 'local')).resolves.toBe('local');
    await server.start();
    await until('Redis is used again', async () => (await redis.run(ping, () => 'local')) === 'PONG');
    expect(logs.warnings()).toHaveLength(1);
    expect(logs.infos()).toEqual(['Redis reachable again; shared state resumes']);
    await redis.close();
  });
});
