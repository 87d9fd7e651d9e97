import { Logger } from '@nestjs/common';
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { AppException } from '../../errors/app.exception';
import { newKeyId, newSecret } from './api-key-format';
import { hashSecret } from './api-key-hash';
import { ApiKeyRecord } from './api-key-record';
import { API_KEYS_FILE, FileApiKeyStore } from './file-api-key.store';

const freshDir = (): string => path.join(mkdtempSync(path.join(tmpdir(), 'api-keys-')), 'data');

function record(fields: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const keyId = newKeyId();
  return {
    keyId,
    accountId: 'alice',
    accountType: 'agent',
    createdAt: 1000,
    ...hashSecret(keyId, newSecret()),
    ...fields,
  };
}

const codeOf = (error: unknown): string | undefined =>
  error instanceof AppException ? error.definition.code : undefined;

describe('FileApiKeyStore', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('answers an empty store before the file exists', async () => {
    const store = new FileApiKeyStore(freshDir());
    await expect(store.list()).resolves.toEqual([]);
    await expect(store.find(newKeyId())).resolves.toBeUndefined();
  });

  it('creates, finds, lists and revokes; a second revocation keeps the first time', async () => {
    const store = new FileApiKeyStore(freshDir());
    const key = record({ name: 'ci', expiresAt: 5000 });
    await store.create(key);
    await expect(store.find(key.keyId)).resolves.toEqual(key);
    await expect(store.list()).resolves.toEqual([key]);
    await expect(store.revoke(key.keyId, 2000)).resolves.toEqual({ ...key, revokedAt: 2000 });
    await expect(store.revoke(key.keyId, 3000)).resolves.toEqual({ ...key, revokedAt: 2000 });
    await expect(store.revoke(newKeyId(), 3000)).resolves.toBeUndefined();
  });

  it('lets two stores on one DATA_DIR (the service and the CLI) see each other’s changes at once', async () => {
    const dir = freshDir();
    const [server, cli] = [new FileApiKeyStore(dir), new FileApiKeyStore(dir)];
    const key = record();
    await expect(server.find(key.keyId)).resolves.toBeUndefined();
    await cli.create(key);
    await expect(server.find(key.keyId)).resolves.toEqual(key);
    await cli.revoke(key.keyId, 2000);
    await expect(server.find(key.keyId)).resolves.toMatchObject({ revokedAt: 2000 });
  });

  it('loses no change when two writers (own caches, own queues) write at once: the lock file orders them', async () => {
    const dir = freshDir();
    const writers = [new FileApiKeyStore(dir), new FileApiKeyStore(dir), new FileApiKeyStore(dir)];
    const keys = Array.from({ length: 30 }, () => record());
    await Promise.all(keys.map((key, index) => writers[index % 3].create(key)));
    const listed = await new FileApiKeyStore(dir).list();
    expect(listed.map((key) => key.keyId).sort()).toEqual(keys.map((key) => key.keyId).sort());
    // Temp files were renamed into place and the lock was released.
    expect(readdirSync(dir)).toEqual([API_KEYS_FILE]);
  });

  it('keeps a use and a revocation written at once by two processes', async () => {
    const dir = freshDir();
    const [server, cli] = [new FileApiKeyStore(dir), new FileApiKeyStore(dir)];
    const key = record();
    await server.create(key);
    await Promise.all([server.touch(key.keyId, 4000), cli.revoke(key.keyId, 4001)]);
    await expect(new FileApiKeyStore(dir).find(key.keyId)).resolves.toMatchObject({
      lastUsedAt: 4000,
      revokedAt: 4001,
    });
  });

  it('writes the file for its owner only, hashes and no secret', async () => {
    const dir = freshDir();
    const store = new FileApiKeyStore(dir);
    await store.create(record());
    const file = path.join(dir, API_KEYS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, keys: [{ salt: expect.any(String) }] });
  });

  it('waits for a lock another process holds, then gives up with a 503 (and writes nothing)', async () => {
    const dir = freshDir();
    const store = new FileApiKeyStore(dir, { timeoutMs: 100 });
    await store.create(record());
    writeFileSync(path.join(dir, `${API_KEYS_FILE}.lock`), '999999 now\n');
    const failure = await store.create(record()).catch((error: unknown) => error);
    expect(codeOf(failure)).toBe('agentRetrieval.ServiceUnavailable.ApiKeyStoreUnavailable');
    await expect(store.list()).resolves.toHaveLength(1);
  });

  it('takes over a lock left by a process that died holding it', async () => {
    const dir = freshDir();
    const store = new FileApiKeyStore(dir, { timeoutMs: 100, staleMs: 1000 });
    await store.create(record());
    const lock = path.join(dir, `${API_KEYS_FILE}.lock`);
    writeFileSync(lock, '999999 long ago\n');
    utimesSync(lock, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    await store.create(record());
    await expect(store.list()).resolves.toHaveLength(2);
  });

  it('refuses to read or rewrite a corrupt file (503), leaving it as it was', async () => {
    const dir = freshDir();
    const store = new FileApiKeyStore(dir);
    await store.create(record());
    const file = path.join(dir, API_KEYS_FILE);
    writeFileSync(file, '{"version": 1, "keys": [');
    expect(codeOf(await store.find(newKeyId()).catch((error: unknown) => error))).toMatch(/ApiKeyStoreUnavailable$/);
    expect(codeOf(await store.create(record()).catch((error: unknown) => error))).toMatch(/ApiKeyStoreUnavailable$/);
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1, "keys": [');
  });

  it('skips entries that are not keys when reading, and will not drop them by rewriting the file', async () => {
    const dir = freshDir();
    const good = record();
    const file = path.join(dir, API_KEYS_FILE);
    const store = new FileApiKeyStore(dir);
    await store.create(good);
    writeFileSync(file, JSON.stringify({ version: 1, keys: [good, { keyId: 'not-hex', accountId: 'x' }] }));
    await expect(store.list()).resolves.toEqual([good]);
    expect(codeOf(await store.revoke(good.keyId, 1).catch((error: unknown) => error))).toMatch(/Unavailable$/);
  });
});
