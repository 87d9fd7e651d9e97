import { ApiKeyRecord, ApiKeyStatus, apiKeyStatus } from '../common/auth/api-keys/api-key-record';

/** A key as the admin routes and the CLI show it: never its hash, salt or secret. */
export interface ApiKeyView {
  key_id: string;
  account_id: string;
  account_type: string;
  name: string | null;
  status: ApiKeyStatus;
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The answer to a create: the view plus the full key, which exists nowhere else and is never shown again. */
export type CreatedApiKey = ApiKeyView & { key: string };

const iso = (time: number | undefined): string | null => (time === undefined ? null : new Date(time).toISOString());

export function apiKeyView(record: ApiKeyRecord, now: number): ApiKeyView {
  return {
    key_id: record.keyId,
    account_id: record.accountId,
    account_type: record.accountType,
    name: record.name ?? null,
    status: apiKeyStatus(record, now),
    created_at: new Date(record.createdAt).toISOString(),
    created_by: record.createdBy ?? null,
    expires_at: iso(record.expiresAt),
    last_used_at: iso(record.lastUsedAt),
    revoked_at: iso(record.revokedAt),
  };
}
