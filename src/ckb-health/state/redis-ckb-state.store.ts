import { SharedRedis } from '../../common/redis/shared-redis';
import { CkbState } from '../ckb.types';
import { parseCkbState } from './ckb-state.parse';
import { CkbStateStore } from './ckb-state.store';

export const CKB_STATE_KEY = 'agent-retrieval:ckb:state';
// A state older than a day says nothing useful about CKB any more.
const STATE_TTL_SECONDS = 86400;

/**
 * The state in Redis, shared by every instance. When Redis itself fails, the last state this process
 * saw is used, so a Redis outage degrades to per-process state instead of failing requests. The
 * connection belongs to whoever created `redis`, which closes it.
 */
export class RedisCkbStateStore extends CkbStateStore {
  private lastKnown = parseCkbState(null);

  constructor(private readonly redis: SharedRedis) {
    super();
  }

  async read(): Promise<CkbState> {
    this.lastKnown = await this.redis.run(
      async (client) => parseCkbState(await client.get(CKB_STATE_KEY)),
      () => this.lastKnown,
    );
    return { ...this.lastKnown };
  }

  async write(state: CkbState): Promise<void> {
    this.lastKnown = { ...state };
    await this.redis.run(
      async (client) => {
        await client.set(CKB_STATE_KEY, JSON.stringify(state), 'EX', STATE_TTL_SECONDS);
      },
      () => undefined,
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
