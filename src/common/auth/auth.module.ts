import { Global, Logger, Module } from '@nestjs/common';
import { AuthConfig, configToken } from '../../config';
import { AccountThrottlerGuard } from '../http/account-throttler.guard';
import { withPrivateTwins } from '../http/route-prefixes';
import { AuthGuard } from './auth.guard';
import { CachingIntrospector } from './caching.introspector';
import { HydraIntrospector } from './hydra.introspector';
import { RedisTokenCache } from './redis-token-cache';
import { StaticIntrospector } from './static.introspector';
import { INACTIVE, TokenIntrospector } from './token-introspector.port';
import { WhoamiController } from './whoami.controller';
import { SharedRedis } from '../redis/shared-redis';

class RejectingIntrospector extends TokenIntrospector {
  introspect() {
    return Promise.resolve(INACTIVE);
  }
}

/** The one place that picks the token introspection adapter from AUTH_MODE (and its shared cache from REDIS_URL). */
export function createIntrospector(config: AuthConfig, redis: SharedRedis): TokenIntrospector {
  const cacheOptions = {
    maxEntries: config.cacheMax,
    ttlSeconds: config.cacheTtlSeconds,
    negativeTtlSeconds: config.negativeCacheSeconds,
  };
  switch (config.mode) {
    case 'introspect':
      return new CachingIntrospector(new HydraIntrospector(config), cacheOptions, {
        shared: redis.enabled ? new RedisTokenCache(redis) : undefined,
      });
    case 'static':
      return new StaticIntrospector(config.staticTokens);
    default:
      new Logger('Auth').warn('AUTH_MODE=none: public routes accept requests without a token');
      return new RejectingIntrospector();
  }
}

@Global()
@Module({
  controllers: withPrivateTwins(WhoamiController),
  providers: [
    { provide: TokenIntrospector, useFactory: createIntrospector, inject: [configToken('auth'), SharedRedis] },
    AccountThrottlerGuard,
    AuthGuard,
  ],
  exports: [TokenIntrospector, AccountThrottlerGuard, AuthGuard],
})
export class AuthModule {}
