import { ApiKeyRecord } from './api-key-record';

/**
 * Where API keys live, shared by every replica and the `keys` CLI: Redis when REDIS_URL is set, else a
 * file under DATA_DIR. Every method that cannot reach the store throws
 * AppException(ApiKeyErrors.StoreUnavailable), except `touch`, which is best effort.
 */
export abstract class ApiKeyStore {
  /** The key with this id, revoked and expired ones included; undefined when there is none. */
  abstract find(keyId: string): Promise<ApiKeyRecord | undefined>;
  abstract list(): Promise<ApiKeyRecord[]>;
  abstract create(record: ApiKeyRecord): Promise<void>;
  /** Marks the key revoked at `at` unless it already is; the record after that, or undefined when unknown. */
  abstract revoke(keyId: string, at: number): Promise<ApiKeyRecord | undefined>;
  /** Records a use; never throws (a lost `last_used_at` must not fail a request). */
  abstract touch(keyId: string, at: number): Promise<void>;
  abstract close(): Promise<void>;

  /** Nest calls this at shutdown, so a write under way (a last `last_used_at`) can finish. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
