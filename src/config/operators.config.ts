import { EnvEnum, EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

export const OPERATOR_BACKENDS = ['embedded', 'kweaver'] as const;
export type OperatorBackend = (typeof OPERATOR_BACKENDS)[number];

class OperatorsEnv {
  @Describe('`embedded` (mcp.json + toolbox files) or `kweaver` (agent-operator-integration over HTTP)')
  @EnvEnum(OPERATOR_BACKENDS)
  OPERATOR_BACKEND: OperatorBackend = 'embedded';
  @Describe("one mcp.json to use instead of the network folders' files (a bad file stops the boot)")
  @EnvString({ optional: true })
  MCP_SERVERS_FILE?: string;
  @Describe('deadline of one MCP `tools/call` / `tools/list` (also the AOI MCP call)')
  @EnvInt(100, 600000)
  MCP_CALL_TIMEOUT_MS = 30000;
  @Describe('deadline to start and initialize an MCP server')
  @EnvInt(100, 600000)
  MCP_CONNECT_TIMEOUT_MS = 15000;
  @Describe("how long a server's tool list is cached")
  @EnvInt(0, 86400)
  MCP_TOOLS_CACHE_TTL_S = 60;
  @Describe('after a server drops, calls fail fast (502) this long before a reconnect')
  @EnvInt(0, 600000)
  MCP_RECONNECT_BACKOFF_MS = 1000;
  @Describe('hosts toolbox operations may call (comma list)')
  @EnvString()
  TOOLBOX_ALLOWED_HOSTS = '127.0.0.1,localhost';
  @Describe('deadline of one toolbox HTTP call (also the AOI toolbox proxy)')
  @EnvInt(100, 600000)
  TOOLBOX_TIMEOUT_MS = 30000;
  @Describe('base of the `api_url`s that point at this service')
  @EnvUrl()
  ACTION_PROXY_BASE_URL = 'http://agent-retrieval:30779';
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
