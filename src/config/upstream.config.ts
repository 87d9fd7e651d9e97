import { EnvInt, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

class UpstreamEnv {
  @Describe('Default deadline of an upstream call, reading its answer included (504 past it)')
  @EnvInt(100, 600000)
  UPSTREAM_TIMEOUT_MS = 10000;
  @Describe('ontology-query base URL (no path; the adapter adds `/api/ontology-query/in/v1/…`)')
  @EnvUrl()
  ONTOLOGY_QUERY_URL = 'http://ontology-query-svc.kweaver:13018';
  @Describe('Deadline of each ontology-query call; `0` = `UPSTREAM_TIMEOUT_MS`')
  @EnvInt(0, 600000)
  ONTOLOGY_QUERY_TIMEOUT_MS = 0;
  @Describe('bkn-backend base URL (the adapter adds `/api/bkn-backend/in/v1/…`)')
  @EnvUrl()
  BKN_BACKEND_URL = 'http://bkn-backend-svc.kweaver:13014';
  @Describe('Deadline of each bkn-backend call; `0` = `UPSTREAM_TIMEOUT_MS`')
  @EnvInt(0, 600000)
  BKN_BACKEND_TIMEOUT_MS = 0;
  @Describe('AOI base URL (kweaver mode)')
  @EnvUrl()
  OPERATOR_INTEGRATION_URL = 'http://agent-operator-integration.kweaver:9000';
  @Describe('Deadline of each agent-operator-integration call; `0` = `UPSTREAM_TIMEOUT_MS`')
  @EnvInt(0, 600000)
  OPERATOR_INTEGRATION_TIMEOUT_MS = 0;
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
