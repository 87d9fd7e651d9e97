import { SharedRedis } from '../../common/redis/shared-redis';

export const SESSION_KEY_PREFIX = 'ar:chat:session:';

/**
 * Claims a free session, or renews the caller's own, in one atomic step; answers the owner on record
 * afterwards. KEYS[1] the session key, ARGV[1] the account, ARGV[2] the lifetime in ms.
 */
const CLAIM_SCRIPT = `
local owner = redis.call('GET', KEYS[1])
if not owner then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
if owner == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return owner`;

/**
 * Which account owns each chat session, shared by the replicas through Redis (SPEC §1), so a session
 * claimed on one replica is refused to other accounts on every replica, whatever volume each one has.
 * A record lives as long as an idle workspace does: WORKSPACE_TTL_S after its owner last used it.
 *
 * `claim` answers `undefined` when Redis cannot say (REDIS_URL unset, or Redis unreachable): the
 * owner record in the workspace folder then decides alone, as it always does as well.
 */
export class SessionOwners {
  constructor(
    private readonly redis: SharedRedis,
    private readonly ttlMs: number,
  ) {}

  claim(sessionId: string, accountId: string): Promise<string | undefined> {
    return this.redis.run(
      async (client) => {
        const owner = await client.eval(CLAIM_SCRIPT, 1, SESSION_KEY_PREFIX + sessionId, accountId, this.ttlMs);
        return typeof owner === 'string' ? owner : undefined;
      },
      () => undefined,
    );
  }
}
