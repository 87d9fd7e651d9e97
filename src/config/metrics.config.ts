import { EnvBool, EnvInt } from './env.decorators';
import { defineNamespace } from './config.loader';

class MetricsEnv {
  @EnvBool() METRICS_ENABLED = true;
  @EnvBool() METRICS_PROCESS = true;
}

class RateLimitEnv {
  @EnvBool() RATE_LIMIT_ENABLED = true;
  @EnvInt(1, 86400) RATE_LIMIT_TTL_S = 60;
  @EnvInt(1, 10000000) RATE_LIMIT_MAX = 1200;
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
