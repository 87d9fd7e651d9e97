import { Injectable } from '@nestjs/common';
import { formatApiKey, newKeyId, newSecret } from '../common/auth/api-keys/api-key-format';
import { hashSecret } from '../common/auth/api-keys/api-key-hash';
import { ApiKeyRecord } from '../common/auth/api-keys/api-key-record';
import { ApiKeyStore } from '../common/auth/api-keys/api-key.store';
import { ApiKeyErrors } from '../common/auth/api-keys/api-keys.errors';
import { AppException } from '../common/errors/app.exception';
import { ApiKeyView, apiKeyView, CreatedApiKey } from './api-key.view';
import { parseCreateApiKey, parseKeyId, parseListQuery } from './api-keys.schemas';

/** Creating, listing and revoking API keys: one behaviour behind the admin routes and the `keys` CLI. */
@Injectable()
export class ApiKeysService {
  constructor(private readonly store: ApiKeyStore) {}

  /** Validates the request, stores only the salted hash, and returns the full key: the one time it exists. */
  async create(body: unknown, createdBy?: string): Promise<CreatedApiKey> {
    const now = Date.now();
    const input = parseCreateApiKey(body, now);
    const keyId = newKeyId();
    const secret = newSecret();
    const record: ApiKeyRecord = {
      keyId,
      accountId: input.accountId,
      accountType: input.accountType,
      name: input.name,
      createdBy: createdBy || undefined,
      createdAt: now,
      expiresAt: input.expiresAt,
      ...hashSecret(keyId, secret),
    };
    await this.store.create(record);
    return { key: formatApiKey(keyId, secret), ...apiKeyView(record, now) };
  }

  /** Every key (or one account's: `{ account_id }`), oldest first, revoked and expired ones included. */
  async list(query: unknown = {}): Promise<ApiKeyView[]> {
    const accountId = parseListQuery(query);
    const now = Date.now();
    return (await this.store.list())
      .filter((record) => accountId === undefined || record.accountId === accountId)
      .sort((a, b) => a.createdAt - b.createdAt || a.keyId.localeCompare(b.keyId))
      .map((record) => apiKeyView(record, now));
  }

  async get(keyId: string): Promise<ApiKeyView> {
    const record = await this.store.find(parseKeyId(keyId));
    if (!record) throw notFound();
    return apiKeyView(record, Date.now());
  }

  /** Revokes the key on every replica within 5 s; revoking it again keeps the first revocation time. */
  async revoke(keyId: string): Promise<ApiKeyView> {
    const record = await this.store.revoke(parseKeyId(keyId), Date.now());
    if (!record) throw notFound();
    return apiKeyView(record, Date.now());
  }
}

const notFound = (): AppException => new AppException(ApiKeyErrors.NotFound, 'no API key has this key_id');
