import { Global, Module } from '@nestjs/common';
import { configToken, RedisConfig } from '../../config';
import { SharedRedis } from './shared-redis';

/** The process's one Redis connection (REDIS_URL), for every feature that shares state between replicas. */
@Global()
@Module({
  providers: [
    {
      provide: SharedRedis,
      useFactory: (redis: RedisConfig) => new SharedRedis(redis.url),
      inject: [configToken('redis')],
    },
  ],
  exports: [SharedRedis],
})
export class RedisModule {}
