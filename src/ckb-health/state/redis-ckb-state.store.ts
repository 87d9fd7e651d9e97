import Redis from 'ioredis';
import { CkbState } from '../ckb.types';
import { parseCkbState } from './ckb-state.parse';
import { CkbStateStore } from './ckb-state.store';

export const CKB_STATE_KEY = 'agent-retrieval:ckb:state';
const REDIS_TIMEOUT_MS = 2000;
// A state older than a day says nothing useful about CKB any more.
const STATE_TTL_SECONDS = 86400;

/**
 * The state in Redis, shared by every instance. When Redis itself fails, the last state this process
 * saw is used, so a Redis outage degrades to per-process state instead of failing requests.
 */
export class RedisCkbStateStore extends CkbStateStore {
  private readonly redis: Redis;
  private lastKnown = parseCkbState(null);

  constructor(url: string) {
    super();
    this.redis = new Redis(url, {
      lazyConnect: true,
      connectTimeout: REDIS_TIMEOUT_MS,
      commandTimeout: REDIS_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // ioredis emits connection errors as events; without a listener they would crash the process.
    this.redis.on('error', () => undefined);
  }

  async read(): Promise<CkbState> {
    try {
      this.lastKnown = parseCkbState(await this.redis.get(CKB_STATE_KEY));
    } catch {
      // keep lastKnown
    }
    return { ...this.lastKnown };
  }

  async write(state: CkbState): Promise<void> {
    this.lastKnown = { ...state };
    try {
      await this.redis.set(CKB_STATE_KEY, JSON.stringify(state), 'EX', STATE_TTL_SECONDS);
    } catch {
      // lastKnown already holds it for this process
    }
  }

  close(): Promise<void> {
    this.redis.disconnect();
    return Promise.resolve();
  }
}
