import { resolveFromRoot } from '../../../project-root';
import { SharedRedis } from '../../redis/shared-redis';
import { ApiKeyStore } from './api-key.store';
import { FileApiKeyStore } from './file-api-key.store';
import { RedisApiKeyStore } from './redis-api-key.store';

/**
 * The one place that picks where API keys live: Redis when REDIS_URL is set, else `api-keys.json` under
 * DATA_DIR (the folder the CKB state already uses), so the service and the `keys` CLI always agree.
 */
export function createApiKeyStore(dataDir: string, redis: SharedRedis): ApiKeyStore {
  return redis.enabled ? new RedisApiKeyStore(redis) : new FileApiKeyStore(resolveFromRoot(dataDir));
}
