import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SharedRedis } from '../../common/redis/shared-redis';
import { hasRedisServer, RedisServer } from '../../../test/support/redis-server';
import { AppException } from '../../common/errors/app.exception';
import { ChatErrors } from '../chat.errors';
import { SESSION_KEY_PREFIX, SessionOwners } from './session-owners';
import { Workspaces } from './workspaces';

const TTL_MS = 60_000;
const limits = { ttlSeconds: TTL_MS / 1000, maxFileBytes: 64, maxBytes: 100, maxFiles: 3 };

beforeAll(() => Logger.overrideLogger(false));

describe('SessionOwners without REDIS_URL', () => {
  it('cannot say, so the folder record decides alone', async () => {
    await expect(new SessionOwners(new SharedRedis(undefined), TTL_MS).claim('s1', 'alice')).resolves.toBeUndefined();
  });
});

(hasRedisServer ? describe : describe.skip)('SessionOwners against a real redis-server', () => {
  let server: RedisServer;
  let connections: SharedRedis[];
  let inspector: Redis;
  let parent: string;

  beforeAll(async () => {
    server = await RedisServer.start();
    connections = [new SharedRedis(server.url), new SharedRedis(server.url)];
    inspector = new Redis(server.url);
  });

  afterAll(async () => {
    inspector?.disconnect();
    await Promise.all((connections ?? []).map((redis) => redis.close()));
    await server?.kill();
  });

  beforeEach(async () => {
    await inspector.flushall();
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'session-owners-'));
  });
  afterEach(() => fs.rmSync(parent, { recursive: true, force: true }));

  /** Two replicas: each its own volume, one Redis. */
  const replicas = (): Workspaces[] =>
    connections.map(
      (redis, index) =>
        new Workspaces({ root: path.join(parent, `replica-${index}`), ...limits }, new SessionOwners(redis, TTL_MS)),
    );

  it('claims a free session and renews it for its owner, with the workspace lifetime', async () => {
    const owners = new SessionOwners(connections[0], TTL_MS);
    await expect(owners.claim('s1', 'alice')).resolves.toBe('alice');
    await inspector.pexpire(`${SESSION_KEY_PREFIX}s1`, 1000);
    await expect(owners.claim('s1', 'alice')).resolves.toBe('alice');
    expect(await inspector.pttl(`${SESSION_KEY_PREFIX}s1`)).toBeGreaterThan(TTL_MS - 5000);
  });

  it("answers another account's claim with the owner, and leaves the record as it was", async () => {
    const owners = new SessionOwners(connections[0], TTL_MS);
    await owners.claim('s1', 'alice');
    await inspector.pexpire(`${SESSION_KEY_PREFIX}s1`, 5000);
    await expect(owners.claim('s1', 'bob')).resolves.toBe('alice');
    expect(await inspector.get(`${SESSION_KEY_PREFIX}s1`)).toBe('alice');
    expect(await inspector.pttl(`${SESSION_KEY_PREFIX}s1`)).toBeLessThanOrEqual(5000);
  });

  it('gives a session raced by two accounts on two connections to exactly one of them', async () => {
    const claims = await Promise.all(
      ['alice', 'bob', 'alice', 'bob'].map((account, index) =>
        new SessionOwners(connections[index % 2], TTL_MS).claim('contested', account),
      ),
    );
    expect(new Set(claims).size).toBe(1);
  });

  it('refuses a session owned on another replica with 403, creating nothing for it on this one', async () => {
    const [first, second] = replicas();
    await (await first.open('shared', 'alice')).write('note.txt', 'alice only');
    const error = await second.open('shared', 'bob').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AppException);
    expect(error).toMatchObject({ definition: ChatErrors.SessionForbidden, status: 403 });
    expect(fs.existsSync(path.join(parent, 'replica-1', 'shared'))).toBe(false);
    // The owner is welcome on either replica (each volume holds its own files).
    await expect(second.open('shared', 'alice')).resolves.toMatchObject({ sessionId: 'shared' });
  });

  it('refuses through the folder record when Redis lost the session, without offering it to the caller there', async () => {
    const [first] = replicas();
    await first.open('kept', 'alice');
    await inspector.del(`${SESSION_KEY_PREFIX}kept`);
    await expect(first.open('kept', 'bob')).rejects.toMatchObject({
      status: 403,
      definition: ChatErrors.SessionForbidden,
    });
    expect(await inspector.exists(`${SESSION_KEY_PREFIX}kept`)).toBe(0);
    // The owner's next use records the session in Redis again.
    await first.open('kept', 'alice');
    expect(await inspector.get(`${SESSION_KEY_PREFIX}kept`)).toBe('alice');
  });
});
