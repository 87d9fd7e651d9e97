import { englishDetails } from '../common/errors/localized-details';
import { Logger } from '@nestjs/common';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { parseApiKey } from '../common/auth/api-keys/api-key-format';
import { ApiKeyVerifier } from '../common/auth/api-keys/api-key.verifier';
import { FileApiKeyStore } from '../common/auth/api-keys/file-api-key.store';
import { AppException } from '../common/errors/app.exception';
import { ApiKeysService } from './api-keys.service';

function service() {
  const dir = mkdtempSync(path.join(tmpdir(), 'api-keys-service-'));
  const store = new FileApiKeyStore(dir);
  return { dir, store, keys: new ApiKeysService(store), verifier: new ApiKeyVerifier(store, { cacheMs: 0 }) };
}

const failureOf = async (promise: Promise<unknown>): Promise<{ code?: string; status?: number; details?: unknown }> => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppException)) throw new Error(`expected an AppException, got ${String(error)}`);
  return { code: error.definition.code, status: error.status, details: error.details };
};

describe('ApiKeysService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('creates a key that verifies as its account, and stores only its hash', async () => {
    const { dir, keys, verifier } = service();
    const created = await keys.create(
      { account_id: 'alice', account_type: 'agent', name: 'ci', expires_in: '30d' },
      'ops',
    );
    expect(parseApiKey(created.key)?.keyId).toBe(created.key_id);
    expect(created).toMatchObject({ account_id: 'alice', account_type: 'agent', name: 'ci', status: 'active' });
    expect(created).toMatchObject({ created_by: 'ops', last_used_at: null, revoked_at: null });
    expect(Date.parse(created.expires_at!) - Date.parse(created.created_at)).toBe(30 * 86_400_000);
    await expect(verifier.verify(created.key)).resolves.toMatchObject({
      active: true,
      accountId: 'alice',
      keyId: created.key_id,
    });
    const file = readFileSync(path.join(dir, 'api-keys.json'), 'utf8');
    expect(file).not.toContain(parseApiKey(created.key)!.secret);
  });

  it('lists keys (all, or one account’s) without a secret, salt or hash', async () => {
    const { keys } = service();
    const alice = await keys.create({ account_id: 'alice', account_type: 'agent' });
    await keys.create({ account_id: 'bob', account_type: 'user' });
    const all = await keys.list();
    expect(all.map((key) => key.account_id)).toEqual(['alice', 'bob']);
    expect((await keys.list({ account_id: 'alice' })).map((key) => key.key_id)).toEqual([alice.key_id]);
    const text = JSON.stringify(all);
    expect(text).not.toMatch(/salt|hash|"key"/);
    expect(text).not.toContain(parseApiKey(alice.key)!.secret);
  });

  it('revokes a key: it stops verifying, shows as revoked, and a second revoke keeps the first time', async () => {
    const { keys, verifier } = service();
    const created = await keys.create({ account_id: 'alice', account_type: 'agent' });
    const revoked = await keys.revoke(created.key_id);
    expect(revoked).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    await expect(verifier.verify(created.key)).resolves.toMatchObject({ active: false });
    await expect(keys.revoke(created.key_id)).resolves.toEqual(revoked);
    await expect(keys.get(created.key_id)).resolves.toEqual(revoked);
  });

  it('answers an unknown key id with 404 and a malformed one with 400', async () => {
    const { keys } = service();
    expect(await failureOf(keys.revoke('0123456789abcdef'))).toMatchObject({
      code: 'agentRetrieval.NotFound.ApiKeyNotFound',
      status: 404,
    });
    expect(await failureOf(keys.get('nope'))).toMatchObject({
      status: 400,
      details: expect.stringMatching(/^key_id: /),
    });
  });

  it.each([
    [{ account_type: 'agent' }, 'account_id is required'],
    [{ account_id: 'alice' }, 'account_type is required'],
    [
      { account_id: 'al ice', account_type: 'agent' },
      'account_id is invalid: must be 1 to 256 visible ASCII characters',
    ],
    [{ account_id: 'alice', account_type: 'agent!' }, 'account_type is invalid: must be 1 to 64 letters'],
    [{ account_id: 'alice', account_type: 'agent', name: '' }, 'name must have at least 1 characters'],
    [
      { account_id: 'alice', account_type: 'agent', name: 'a\nb' },
      'name is invalid: must not contain control characters',
    ],
    [{ account_id: 'alice', account_type: 'agent', expires: '30d' }, 'expires: unknown field'],
    [{ account_id: 'alice', account_type: 'agent', expires_in: '30 days' }, 'expires_in: must be a duration'],
    [{ account_id: 'alice', account_type: 'agent', expires_at: '2020-01-01' }, 'expires_at: must be in the future'],
    [{ account_id: 'alice', account_type: 'agent', expires_at: '2099-01-01', expires_in: '1d' }, 'not both'],
    [{ account_id: 7, account_type: 'agent' }, 'account_id must be of type string, not number'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const { keys } = service();
    const failure = await failureOf(keys.create(body));
    expect(failure.status).toBe(400);
    expect(englishDetails(failure.details)).toEqual(expect.stringContaining(message));
  });
});
