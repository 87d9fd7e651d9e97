import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CkbState } from '../ckb.types';
import { CKB_STATE_FILE, FileCkbStateStore } from './file-ckb-state.store';
import { RedisCkbStateStore } from './redis-ckb-state.store';
import { freePort } from '../../../test/support/free-port';

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

const redisServer = spawnSync('which', ['redis-server']).status === 0;

/** True when a Redis on the port answers PING with PONG (not LOADING, not a refused connection). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (reply) => done(reply.toString().startsWith('+PONG')));
  });
}

/** Waits until the redis-server just started answers, failing fast if it exits and after 10 s at most. */
async function untilReady(redis: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await answersPing(port))) {
    if (redis.exitCode !== null) throw new Error(`redis-server exited with ${redis.exitCode} before answering`);
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within 10 s`);
    await sleep(20);
  }
}

(redisServer ? describe : describe.skip)('RedisCkbStateStore (needs a redis-server binary)', () => {
  it('shares the state between two stores through Redis', async () => {
    const port = await freePort();
    const redis = spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    try {
      await untilReady(redis, port);
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
