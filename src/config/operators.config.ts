import { EnvEnum, EnvInt, EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

export const OPERATOR_BACKENDS = ['embedded', 'kweaver'] as const;
export type OperatorBackend = (typeof OPERATOR_BACKENDS)[number];

class OperatorsEnv {
  @EnvEnum(OPERATOR_BACKENDS) OPERATOR_BACKEND: OperatorBackend = 'embedded';
  @EnvString({ optional: true }) MCP_SERVERS_FILE?: string;
  @EnvInt(100, 600000) MCP_CALL_TIMEOUT_MS = 30000;
  @EnvInt(100, 600000) MCP_CONNECT_TIMEOUT_MS = 15000;
  @EnvInt(0, 86400) MCP_TOOLS_CACHE_TTL_S = 60;
  @EnvInt(0, 600000) MCP_RECONNECT_BACKOFF_MS = 1000;
  @EnvString() TOOLBOX_ALLOWED_HOSTS = '127.0.0.1,localhost';
  @EnvInt(100, 600000) TOOLBOX_TIMEOUT_MS = 30000;
  @EnvUrl() ACTION_PROXY_BASE_URL = 'http://agent-retrieval:30779';
}

const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');

/** Operators (toolboxes and MCP tools): which adapter, where the embedded registry reads from, limits. */
export const operatorsNamespace = defineNamespace('operators', OperatorsEnv, (env) => ({
  backend: env.OPERATOR_BACKEND,
  mcpServersFile: env.MCP_SERVERS_FILE,
  mcpCallTimeoutMs: env.MCP_CALL_TIMEOUT_MS,
  mcpConnectTimeoutMs: env.MCP_CONNECT_TIMEOUT_MS,
  mcpToolsCacheTtlMs: env.MCP_TOOLS_CACHE_TTL_S * 1000,
  mcpReconnectBackoffMs: env.MCP_RECONNECT_BACKOFF_MS,
  toolboxAllowedHosts: splitList(env.TOOLBOX_ALLOWED_HOSTS),
  toolboxTimeoutMs: env.TOOLBOX_TIMEOUT_MS,
  actionProxyBaseUrl: env.ACTION_PROXY_BASE_URL.replace(/\/+$/, ''),
}));
export type OperatorsConfig = ReturnType<typeof operatorsNamespace.map>;
