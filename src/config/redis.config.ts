import { Matches } from 'class-validator';
import { EnvString } from './env.decorators';
import { defineNamespace } from './config.loader';

class RedisEnv {
  /** One Redis for all state replicas share: CKB state, introspection cache, rate limits. */
  @EnvString({ optional: true })
  @Matches(/^rediss?:\/\/\S+$/, { message: '$property must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;
}

export const redisNamespace = defineNamespace('redis', RedisEnv, (env) => ({
  /** Unset: every piece of shared state stays in process (the CKB state in its file). */
  url: env.REDIS_URL,
}));
export type RedisConfig = ReturnType<typeof redisNamespace.map>;
