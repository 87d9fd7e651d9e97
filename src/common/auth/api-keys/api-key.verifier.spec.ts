import { AppException } from '../../errors/app.exception';
import { INACTIVE } from '../token-introspector.port';
import { formatApiKey, newKeyId, newSecret } from './api-key-format';
import { hashSecret } from './api-key-hash';
import { ApiKeyRecord } from './api-key-record';
import { ApiKeyStore } from './api-key.store';
import { ApiKeyVerifier, LAST_USED_INTERVAL_MS, VERIFIED_KEY_CACHE_MS } from './api-key.verifier';
import { ApiKeyErrors } from './api-keys.errors';

/** A store in memory that counts its reads and records its touches. */
class MemoryStore extends ApiKeyStore {
  readonly records = new Map<string, ApiKeyRecord>();
  reads = 0;
  touches: [string, number][] = [];
  failing = false;

  find(keyId: string): Promise<ApiKeyRecord | undefined> {
    this.reads += 1;
    if (this.failing) return Promise.reject(new AppException(ApiKeyErrors.StoreUnavailable, 'down'));
    const record = this.records.get(keyId);
    return Promise.resolve(record && { ...record });
  }
  list(): Promise<ApiKeyRecord[]> {
    return Promise.resolve([...this.records.values()]);
  }
  create(record: ApiKeyRecord): Promise<void> {
    this.records.set(record.keyId, record);
    return Promise.resolve();
  }
  revoke(keyId: string, at: number): Promise<ApiKeyRecord | undefined> {
    const record = this.records.get(keyId);
    if (record) record.revokedAt ??= at;
    return Promise.resolve(record);
  }
  touch(keyId: string, at: number): Promise<void> {
    this.touches.push([keyId, at]);
    return this.failing ? Promise.reject(new Error('down')) : Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function setup(fields: Partial<ApiKeyRecord> = {}) {
  const clock = { now: 1_000_000 };
  const store = new MemoryStore();
  const keyId = newKeyId();
  const secret = newSecret();
  const record: ApiKeyRecord = {
    keyId,
    accountId: 'agent-7',
    accountType: 'agent',
    createdAt: clock.now,
    ...hashSecret(keyId, secret),
    ...fields,
  };
  void store.create(record);
  const verifier = new ApiKeyVerifier(store, { now: () => clock.now });
  return { clock, store, record, key: formatApiKey(keyId, secret), keyId, secret, verifier };
}

describe('ApiKeyVerifier', () => {
  it('answers a valid key with its account, account type and key id', async () => {
    const { verifier, key, keyId } = setup({ expiresAt: 1_000_000 + 3_600_000 });
    await expect(verifier.verify(key)).resolves.toEqual({
      active: true,
      accountId: 'agent-7',
      accountType: 'agent',
      keyId,
      expiresAt: Math.floor((1_000_000 + 3_600_000) / 1000),
    });
  });

  it('refuses a wrong secret, an unknown id and a malformed key; the malformed one reads nothing', async () => {
    const { verifier, store, keyId } = setup();
    await expect(verifier.verify(formatApiKey(keyId, newSecret()))).resolves.toEqual(INACTIVE);
    await expect(verifier.verify(formatApiKey(newKeyId(), newSecret()))).resolves.toEqual(INACTIVE);
    const reads = store.reads;
    await expect(verifier.verify(`ar_${keyId}_tooshort`)).resolves.toEqual(INACTIVE);
    expect(store.reads).toBe(reads);
  });

  it('refuses an expired key at its expiry, even while its record is cached', async () => {
    const { verifier, key, clock } = setup({ expiresAt: 1_000_500 });
    await expect(verifier.verify(key)).resolves.toMatchObject({ active: true });
    clock.now = 1_000_499;
    await expect(verifier.verify(key)).resolves.toMatchObject({ active: true });
    clock.now = 1_000_500;
    await expect(verifier.verify(key)).resolves.toEqual(INACTIVE);
  });

  it('re-reads the store once the cache window has passed, so a revocation is seen within it', async () => {
    const { verifier, store, key, keyId, clock } = setup();
    await expect(verifier.verify(key)).resolves.toMatchObject({ active: true });
    expect(store.reads).toBe(1);
    await store.revoke(keyId, clock.now);
    clock.now += VERIFIED_KEY_CACHE_MS - 1;
    await expect(verifier.verify(key)).resolves.toMatchObject({ active: true });
    expect(store.reads).toBe(1);
    clock.now += 1;
    await expect(verifier.verify(key)).resolves.toEqual(INACTIVE);
    expect(store.reads).toBe(2);
    expect(VERIFIED_KEY_CACHE_MS).toBeLessThanOrEqual(2000);
  });

  it('shares one store read between concurrent requests for one key', async () => {
    const { verifier, store, key } = setup();
    const answers = await Promise.all(Array.from({ length: 10 }, () => verifier.verify(key)));
    expect(answers.every((answer) => answer.active)).toBe(true);
    expect(store.reads).toBe(1);
  });

  it('checks the secret on every request: a cached record does not let a wrong secret in', async () => {
    const { verifier, key, keyId } = setup();
    await verifier.verify(key);
    await expect(verifier.verify(formatApiKey(keyId, newSecret()))).resolves.toEqual(INACTIVE);
  });

  it('records last_used_at at most once a minute per key, without waiting for it', async () => {
    const { verifier, store, key, keyId, clock } = setup();
    await verifier.verify(key);
    expect(store.touches).toEqual([[keyId, clock.now]]);
    const first = clock.now;
    clock.now += LAST_USED_INTERVAL_MS - 1;
    await verifier.verify(key);
    expect(store.touches).toHaveLength(1);
    clock.now = first + LAST_USED_INTERVAL_MS;
    await verifier.verify(key);
    expect(store.touches).toEqual([
      [keyId, first],
      [keyId, first + LAST_USED_INTERVAL_MS],
    ]);
  });

  it('does not touch a key another replica used less than a minute ago', async () => {
    const { verifier, store, key } = setup({ lastUsedAt: 1_000_000 - 1000 });
    await verifier.verify(key);
    expect(store.touches).toEqual([]);
  });

  it('passes a store outage on as the store error (a 503), never as a pass', async () => {
    const { verifier, store, key } = setup();
    store.failing = true;
    const failure = await verifier.verify(key).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppException);
    expect((failure as AppException).status).toBe(503);
  });

  it('keeps answering a cached key when recording its use fails', async () => {
    const { verifier, store, key } = setup();
    await verifier.verify(key);
    store.failing = true;
    await expect(verifier.verify(key)).resolves.toMatchObject({ active: true });
  });
});
