import { KEY_ID_PATTERN } from './api-key-format';

/** One API key as stored: who it stands for, its life, and the salted hash of its secret (never the secret). */
export interface ApiKeyRecord {
  keyId: string;
  accountId: string;
  /** The account type the access policy scopes the key by. */
  accountType: string;
  name?: string;
  /** Who made it: the private caller's x-account-id, or `cli`. */
  createdBy?: string;
  /** Epoch milliseconds, as every time below. */
  createdAt: number;
  expiresAt?: number;
  lastUsedAt?: number;
  revokedAt?: number;
  salt: string;
  hash: string;
}

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

export function apiKeyStatus(record: ApiKeyRecord, now: number): ApiKeyStatus {
  if (record.revokedAt !== undefined) return 'revoked';
  if (record.expiresAt !== undefined && record.expiresAt <= now) return 'expired';
  return 'active';
}

const text = (value: unknown, max: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max;
const time = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);
const optionalTime = (value: unknown): number | undefined => (time(value) ? value : undefined);

/**
 * Reads a stored record defensively: the file may have been edited by hand and Redis may hold anything,
 * so an entry without a valid id, account and hash is no key at all.
 */
export function parseApiKeyRecord(value: unknown): ApiKeyRecord | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  if (typeof raw.keyId !== 'string' || !KEY_ID_PATTERN.test(raw.keyId)) return undefined;
  if (!text(raw.accountId, 256) || !text(raw.accountType, 64) || !time(raw.createdAt)) return undefined;
  if (!text(raw.salt, 64) || !text(raw.hash, 64)) return undefined;
  return {
    keyId: raw.keyId,
    accountId: raw.accountId,
    accountType: raw.accountType,
    name: text(raw.name, 200) ? raw.name : undefined,
    createdBy: text(raw.createdBy, 256) ? raw.createdBy : undefined,
    createdAt: raw.createdAt,
    expiresAt: optionalTime(raw.expiresAt),
    lastUsedAt: optionalTime(raw.lastUsedAt),
    revokedAt: optionalTime(raw.revokedAt),
    salt: raw.salt,
    hash: raw.hash,
  };
}
