import { EnvInt, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

class UpstreamEnv {
  @EnvInt(100, 600000) UPSTREAM_TIMEOUT_MS = 10000;
  @EnvUrl() ONTOLOGY_QUERY_URL = 'http://ontology-query-svc.kweaver:13018';
  @EnvInt(0, 600000) ONTOLOGY_QUERY_TIMEOUT_MS = 0;
  @EnvUrl() BKN_BACKEND_URL = 'http://bkn-backend-svc.kweaver:13014';
  @EnvInt(0, 600000) BKN_BACKEND_TIMEOUT_MS = 0;
  @EnvUrl() OPERATOR_INTEGRATION_URL = 'http://agent-operator-integration.kweaver:9000';
  @EnvInt(0, 600000) OPERATOR_INTEGRATION_TIMEOUT_MS = 0;
}

export interface UpstreamTarget {
  baseUrl: string;
  timeoutMs: number;
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** Per-upstream timeouts of 0 fall back to UPSTREAM_TIMEOUT_MS. */
export const upstreamNamespace = defineNamespace('upstream', UpstreamEnv, (env) => {
  const target = (baseUrl: string, timeoutMs: number): UpstreamTarget => ({
    baseUrl: trimSlash(baseUrl),
    timeoutMs: timeoutMs || env.UPSTREAM_TIMEOUT_MS,
  });
  return {
    ontologyQuery: target(env.ONTOLOGY_QUERY_URL, env.ONTOLOGY_QUERY_TIMEOUT_MS),
    bknBackend: target(env.BKN_BACKEND_URL, env.BKN_BACKEND_TIMEOUT_MS),
    operatorIntegration: target(env.OPERATOR_INTEGRATION_URL, env.OPERATOR_INTEGRATION_TIMEOUT_MS),
  };
});
export type UpstreamConfig = ReturnType<typeof upstreamNamespace.map>;
