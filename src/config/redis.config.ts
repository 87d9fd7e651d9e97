import { Matches } from 'class-validator';
import { EnvString, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

class RedisEnv {
  /** One Redis for all state replicas share: CKB state, introspection cache, rate limits. */
  @Describe(
    '`redis://` or `rediss://` URL of one Redis shared by every replica: the introspection cache (active and inactive answers), the rate-limit buckets, the CKB state and the [API keys](security.md#api-keys) (instead of their files). Unset: all of it stays in process. See [Authentication](security.md) for what happens when Redis is down',
  )
  @EnvString({ optional: true })
  @Matches(/^rediss?:\/\/\S+$/, { message: '$property must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;
}

export const redisNamespace = defineNamespace('redis', RedisEnv, (env) => ({
  /** Unset: every piece of shared state stays in process (the CKB state in its file). */
  url: env.REDIS_URL,
}));
export type RedisConfig = ReturnType<typeof redisNamespace.map>;
