import { CkbConfig } from '../../config';
import { SharedRedis } from '../../common/redis/shared-redis';
import { resolveFromRoot } from '../../project-root';
import { CkbStateStore } from './ckb-state.store';
import { FileCkbStateStore } from './file-ckb-state.store';
import { RedisCkbStateStore } from './redis-ckb-state.store';

/** The one place that picks where the CKB state is shared: Redis when REDIS_URL is set, else a file. */
export function createCkbStateStore(config: CkbConfig, redis: SharedRedis): CkbStateStore {
  return redis.enabled ? new RedisCkbStateStore(redis) : new FileCkbStateStore(resolveFromRoot(config.dataDir));
}
