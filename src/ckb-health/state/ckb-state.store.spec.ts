import { Logger } from '@nestjs/common';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SharedRedis } from '../../common/redis/shared-redis';
import { CkbState } from '../ckb.types';
import { CKB_STATE_FILE, FileCkbStateStore } from './file-ckb-state.store';
import { RedisCkbStateStore } from './redis-ckb-state.store';
import { freePort } from '../../../test/support/free-port';
import { hasRedisServer, RedisServer } from '../../../test/support/redis-server';

const failure: CkbState = {
  available: false,
  lastFailureAt: 1000,
  reason: 'connection_timeout',
  lastError: 'slow',
  checkedAt: 1000,
};

describe('FileCkbStateStore', () => {
  it('lets two stores on one DATA_DIR (two processes) agree, writing atomically', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'ckb-state-')), 'nested');
    const writer = new FileCkbStateStore(dir);
    const reader = new FileCkbStateStore(dir);
    await expect(reader.read()).resolves.toMatchObject({ available: null });
    await writer.write(failure);
    await expect(reader.read()).resolves.toEqual(failure);
    expect(readdirSync(dir)).toEqual([CKB_STATE_FILE]);
  });

  it('treats a corrupt or foreign file as unknown state', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ckb-state-'));
    writeFileSync(path.join(dir, CKB_STATE_FILE), '{"available": "yes", "reason": "rm -rf", "lastFailureAt": "soon"');
    await expect(new FileCkbStateStore(dir).read()).resolves.toEqual({
      available: null,
      lastFailureAt: null,
      reason: null,
      lastError: null,
      checkedAt: null,
    });
    writeFileSync(path.join(dir, CKB_STATE_FILE), '{"available": false, "reason": "rm -rf", "lastFailureAt": 5}');
    await expect(new FileCkbStateStore(dir).read()).resolves.toMatchObject({
      available: false,
      reason: null,
      lastFailureAt: 5,
    });
  });
});

(hasRedisServer ? describe : describe.skip)('RedisCkbStateStore (needs a redis-server binary)', () => {
  it('shares the state between two stores through Redis', async () => {
    const server = await RedisServer.start();
    const [writerRedis, readerRedis] = [new SharedRedis(server.url), new SharedRedis(server.url)];
    try {
      const [writer, reader] = [new RedisCkbStateStore(writerRedis), new RedisCkbStateStore(readerRedis)];
      await writer.write(failure);
      await expect(reader.read()).resolves.toEqual(failure);
    } finally {
      await Promise.all([writerRedis.close(), readerRedis.close()]);
      await server.kill();
    }
  });
});

if (!hasRedisServer) {
  console.info('RedisCkbStateStore spec skipped: no redis-server binary on PATH');
}

describe('RedisCkbStateStore without a reachable Redis', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('falls back to the state this process last wrote', async () => {
    const redis = new SharedRedis(`redis://127.0.0.1:${await freePort()}`);
    const store = new RedisCkbStateStore(redis);
    await store.write(failure);
    await expect(store.read()).resolves.toEqual(failure);
    await redis.close();
  });
});
