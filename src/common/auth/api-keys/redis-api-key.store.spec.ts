import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import { AppException } from '../../errors/app.exception';
import { SharedRedis } from '../../redis/shared-redis';
import { newKeyId, newSecret } from './api-key-format';
import { hashSecret } from './api-key-hash';
import { ApiKeyRecord } from './api-key-record';
import { RedisApiKeyStore } from './redis-api-key.store';
import { freePort } from '../../../../test/support/free-port';
import { hasRedisServer, RedisServer } from '../../../../test/support/redis-server';
import { until } from '../../../../test/support/until';

function record(fields: Partial<ApiKeyRecord> = {}): { record: ApiKeyRecord; secret: string } {
  const keyId = newKeyId();
  const secret = newSecret();
  const made = {
    keyId,
    accountId: 'alice',
    accountType: 'agent',
    createdAt: 1000,
    ...hashSecret(keyId, secret),
    ...fields,
  };
  return { record: made, secret };
}

const codeOf = (error: unknown): string | undefined =>
  error instanceof AppException ? error.definition.code : undefined;

beforeAll(() => Logger.overrideLogger(false));

(hasRedisServer ? describe : describe.skip)('RedisApiKeyStore against a real redis-server', () => {
  let server: RedisServer;
  const connections: SharedRedis[] = [];
  const connect = (): SharedRedis => {
    const redis = new SharedRedis(server.url);
    connections.push(redis);
    return redis;
  };

  beforeAll(async () => {
    server = await RedisServer.start();
  });

  afterAll(async () => {
    await Promise.all(connections.map((redis) => redis.close()));
    await server?.kill();
  });

  it('shares keys between two replicas: create on one, find, list, touch and revoke on the other', async () => {
    const [first, second] = [new RedisApiKeyStore(connect()), new RedisApiKeyStore(connect())];
    const { record: key } = record({ name: 'ci', expiresAt: 9000, createdBy: 'ops' });
    await first.create(key);
    await expect(second.find(key.keyId)).resolves.toEqual(key);
    await expect(second.list()).resolves.toEqual(expect.arrayContaining([key]));
    await second.touch(key.keyId, 5000);
    await expect(first.revoke(key.keyId, 6000)).resolves.toEqual({ ...key, lastUsedAt: 5000, revokedAt: 6000 });
    await expect(second.revoke(key.keyId, 7000)).resolves.toMatchObject({ revokedAt: 6000 });
    await second.touch(key.keyId, 8000);
    await expect(first.find(key.keyId)).resolves.toMatchObject({ lastUsedAt: 8000, revokedAt: 6000 });
  });

  it('answers unknown ids with undefined and never creates a record by touching or revoking one', async () => {
    const store = new RedisApiKeyStore(connect());
    const unknown = newKeyId();
    await store.touch(unknown, 1);
    await expect(store.revoke(unknown, 1)).resolves.toBeUndefined();
    await expect(store.find(unknown)).resolves.toBeUndefined();
  });

  it('holds no secret: only the salted hash reaches Redis', async () => {
    const store = new RedisApiKeyStore(connect());
    const { record: key, secret } = record();
    await store.create(key);
    const inspector = new Redis(server.url);
    const dump = JSON.stringify(await inspector.hgetall(`ar:api-key:${key.keyId}`));
    await inspector.quit();
    expect(dump).toContain(key.hash);
    expect(dump).not.toContain(secret);
  });

  it('while Redis is down: a key this replica has read is answered from that read, anything else is a 503; then Redis again', async () => {
    const redis = connect();
    const store = new RedisApiKeyStore(redis);
    const { record: known } = record();
    await store.create(known);
    await store.find(known.keyId);
    await server.kill();
    try {
      await expect(store.find(known.keyId)).resolves.toEqual(known);
      expect(codeOf(await store.find(newKeyId()).catch((error: unknown) => error))).toMatch(/ApiKeyStoreUnavailable$/);
      expect(codeOf(await store.list().catch((error: unknown) => error))).toMatch(/ApiKeyStoreUnavailable$/);
      expect(codeOf(await store.create(record().record).catch((error: unknown) => error))).toMatch(/Unavailable$/);
      await expect(store.touch(known.keyId, 1)).resolves.toBeUndefined();
    } finally {
      await server.start();
    }
    const answers = () =>
      store.find(newKeyId()).then(
        (found) => found === undefined,
        () => false,
      );
    await until('the store reads Redis again', answers);
  });
});

describe('RedisApiKeyStore without a reachable Redis', () => {
  it('is a 503 for a key it has never read, never a pass', async () => {
    const redis = new SharedRedis(`redis://127.0.0.1:${await freePort()}`);
    const failure = await new RedisApiKeyStore(redis).find(newKeyId()).catch((error: unknown) => error);
    expect(codeOf(failure)).toBe('agentRetrieval.ServiceUnavailable.ApiKeyStoreUnavailable');
    expect((failure as AppException).status).toBe(503);
    await redis.close();
  });
});
