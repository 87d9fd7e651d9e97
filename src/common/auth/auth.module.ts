import { Global, Logger, Module } from '@nestjs/common';
import { AuthConfig, CkbConfig, configToken } from '../../config';
import { AccountThrottlerGuard } from '../http/account-throttler.guard';
import { withPrivateTwins } from '../http/route-prefixes';
import { ApiKeyIntrospector } from './api-keys/api-key.introspector';
import { createApiKeyStore } from './api-keys/api-key-store.factory';
import { ApiKeyStore } from './api-keys/api-key.store';
import { ApiKeyVerifier } from './api-keys/api-key.verifier';
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

/**
 * The one place that picks the token introspection adapter from AUTH_MODE (and its shared cache from
 * REDIS_URL); API keys are accepted in front of it in every mode but `none`.
 */
export function createIntrospector(config: AuthConfig, redis: SharedRedis, keys: ApiKeyVerifier): TokenIntrospector {
  const introspector = createTokenIntrospector(config, redis);
  return config.mode === 'none' ? introspector : new ApiKeyIntrospector(keys, introspector);
}

function createTokenIntrospector(config: AuthConfig, redis: SharedRedis): TokenIntrospector {
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
      if (config.staticTokens.some((entry) => entry.token.startsWith('ar_'))) {
        new Logger('Auth').warn(
          'AUTH_STATIC_TOKENS: a token starting with ar_ is read as an API key and never matches',
        );
      }
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
    {
      provide: ApiKeyStore,
      // API keys share DATA_DIR with the CKB state: one data folder for the service's own files.
      useFactory: (ckb: CkbConfig, redis: SharedRedis) => createApiKeyStore(ckb.dataDir, redis),
      inject: [configToken('ckb'), SharedRedis],
    },
    { provide: ApiKeyVerifier, useFactory: (store: ApiKeyStore) => new ApiKeyVerifier(store), inject: [ApiKeyStore] },
    {
      provide: TokenIntrospector,
      useFactory: createIntrospector,
      inject: [configToken('auth'), SharedRedis, ApiKeyVerifier],
    },
    AccountThrottlerGuard,
    AuthGuard,
  ],
  exports: [TokenIntrospector, ApiKeyStore, AccountThrottlerGuard, AuthGuard],
})
export class AuthModule {}
