import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { CkbState } from '../ckb.types';
import { CKB_STATE_FILE, FileCkbStateStore } from './file-ckb-state.store';
import { RedisCkbStateStore } from './redis-ckb-state.store';

const failure: CkbState = { available: false, lastFailureAt: 1000, reason: 'connection_timeout', lastError: 'slow', checkedAt: 1000 };

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
    await expect(new FileCkbStateStore(dir).read()).resolves.toMatchObject({ available: false, reason: null, lastFailureAt: 5 });
  });
});

const redisServer = spawnSync('which', ['redis-server']).status === 0;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

(redisServer ? describe : describe.skip)('RedisCkbStateStore (needs a redis-server binary)', () => {
  it('shares the state between two stores through Redis', async () => {
    const port = await freePort();
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const url = `redis://127.0.0.1:${port}`;
      const [writer, reader] = [new RedisCkbStateStore(url), new RedisCkbStateStore(url)];
      await writer.write(failure);
      await expect(reader.read()).resolves.toEqual(failure);
      await Promise.all([writer.close(), reader.close()]);
    } finally {
      redis.kill();
    }
  });
});

if (!redisServer) {
  console.info('RedisCkbStateStore spec skipped: no redis-server binary on PATH');
}

describe('RedisCkbStateStore without a reachable Redis', () => {
  it('falls back to the state this process last wrote', async () => {
    const store = new RedisCkbStateStore(`redis://127.0.0.1:${await freePort()}`);
    await store.write(failure);
    await expect(store.read()).resolves.toEqual(failure);
    await store.close();
  });
});
