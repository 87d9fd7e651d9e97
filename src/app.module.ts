import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import * as path from 'node:path';
import { I18nModule } from 'nestjs-i18n';
import { AuthGuard } from './common/auth/auth.guard';
import { AuthModule } from './common/auth/auth.module';
import { AccountThrottlerGuard } from './common/http/account-throttler.guard';
import { createThrottlerStorage } from './common/http/redis-throttler.storage';
import { RedisModule } from './common/redis/redis.module';
import { SharedRedis } from './common/redis/shared-redis';
import { RequestBodyGuard } from './common/http/request-body.guard';
import { InputLimitsModule } from './common/limits/input-limits.module';
import { ErrorsModule } from './common/errors/errors.module';
import { LanguageResolver } from './common/i18n/language.resolver';
import { ResponseFormatGuard } from './common/response-format/response-format';
import { AppConfig, configToken, RateLimitConfig } from './config';
import { AppConfigModule } from './config/config.module';
import { HealthModule } from './health/health.module';
import { LoggingModule } from './logging/logging.module';
import { MetricsModule } from './metrics/metrics.module';
import { WorkersModule } from './common/workers/workers.module';
import { ActionRecallModule } from './actionrecall/actionrecall.module';
import { CapabilitiesModule } from './capabilities/capabilities.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { ChatModule } from './chat/chat.module';
import { KbSearchModule } from './kbsearch/kbsearch.module';
import { KnowledgeNetworkModule } from './knowledge-network/knowledge-network.module';
import { KnSearchModule } from './knsearch/knsearch.module';
import { McpServerModule } from './mcpserver/mcp-server.module';
import { McpProxyModule } from './mcpproxy/mcpproxy.module';
import { OperatorsModule } from './operators/operators.module';
import { CkbHealthModule } from './ckb-health/ckb-health.module';
import { CodeIntelligenceModule } from './code-intelligence/code-intelligence.module';
import { ConsoleModule } from './console/console.module';
import { GovernanceModule } from './governance/governance.module';
import { projectRoot } from './project-root';

/** Feature modules are listed here; each brings its own controllers, services and adapters. */
const FEATURE_MODULES: DynamicModule['imports'] = [
  KnowledgeNetworkModule,
  KnSearchModule,
  ActionRecallModule,
  OperatorsModule,
  McpProxyModule,
  CkbHealthModule,
  CodeIntelligenceModule,
  KbSearchModule,
  ChatModule,
  ApiKeysModule,
  GovernanceModule,
  ConsoleModule,
];

/**
 * nestjs-i18n also installs a global interceptor that resolves the language of every request into its
 * own context. Nothing here reads that context (every translation names its language), so the
 * interceptor would only cost each request an interceptor chain: it is left out.
 */
function withoutLanguageInterceptor(module: DynamicModule): DynamicModule {
  const providers = module.providers?.filter(
    (provider) => !(typeof provider === 'object' && 'provide' in provider && provider.provide === APP_INTERCEPTOR),
  );
  return { ...module, providers };
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        AppConfigModule.forRoot(config),
        LoggingModule,
        withoutLanguageInterceptor(
          I18nModule.forRoot({
            fallbackLanguage: config.i18n.defaultLanguage,
            loaderOptions: { path: path.join(projectRoot(), 'i18n'), watch: false },
            // The request context resolves the language once (languageFromHeaders) and every translation
            // names it, so nestjs-i18n resolves nothing per request: no middleware, async context or
            // interceptor. It still wants a resolver (it logs an error without one): ours.
            resolvers: [LanguageResolver],
            disableMiddleware: true,
            skipAsyncHook: true,
            logging: false,
          }),
        ),
        RedisModule,
        ThrottlerModule.forRootAsync({
          inject: [configToken('rateLimit'), SharedRedis],
          useFactory: (rateLimit: RateLimitConfig, redis: SharedRedis) => ({
            throttlers: [{ ttl: rateLimit.ttlSeconds * 1000, limit: rateLimit.limit }],
            skipIf: () => !rateLimit.enabled,
            storage: createThrottlerStorage(redis),
          }),
        }),
        ErrorsModule,
        InputLimitsModule,
        AuthModule,
        MetricsModule,
        WorkersModule,
        HealthModule,
        CapabilitiesModule,
        // First among the routes: the MCP endpoint is matched before the REST twins' routes are tried.
        McpServerModule.forRoot(config),
        ...(FEATURE_MODULES ?? []),
      ],
      providers: [
        // Guards run in this order: authentication first, so rate limits can key on the account (the
        // callers it refuses are counted in their IP's bucket from inside it); the body and
        // response_format checks last, so an unauthenticated caller learns nothing about its request.
        // No global interceptor: a request pays for no interceptor chain.
        { provide: APP_GUARD, useExisting: AuthGuard },
        { provide: APP_GUARD, useExisting: AccountThrottlerGuard },
        { provide: APP_GUARD, useClass: RequestBodyGuard },
        { provide: APP_GUARD, useClass: ResponseFormatGuard },
      ],
    };
  }
}
