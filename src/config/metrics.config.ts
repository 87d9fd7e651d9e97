import { EnvBool, EnvInt, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

class MetricsEnv {
  @Describe('Serve `/metrics`')
  @EnvBool()
  METRICS_ENABLED = true;
  @Describe('Include Node.js process metrics')
  @EnvBool()
  METRICS_PROCESS = true;
}

class RateLimitEnv {
  @Describe('Rate-limit API routes per account (or client IP when anonymous)')
  @EnvBool()
  RATE_LIMIT_ENABLED = true;
  @Describe('Rate-limit window')
  @EnvInt(1, 86400)
  RATE_LIMIT_TTL_S = 60;
  @Describe('Requests per window per account, one bucket across all routes')
  @EnvInt(1, 10000000)
  RATE_LIMIT_MAX = 1200;
}

export const metricsNamespace = defineNamespace('metrics', MetricsEnv, (env) => ({
  enabled: env.METRICS_ENABLED,
  processMetrics: env.METRICS_PROCESS,
}));
export type MetricsConfig = ReturnType<typeof metricsNamespace.map>;

export const rateLimitNamespace = defineNamespace('rateLimit', RateLimitEnv, (env) => ({
  enabled: env.RATE_LIMIT_ENABLED,
  ttlSeconds: env.RATE_LIMIT_TTL_S,
  limit: env.RATE_LIMIT_MAX,
}));
export type RateLimitConfig = ReturnType<typeof rateLimitNamespace.map>;
