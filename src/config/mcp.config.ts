import { EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

class McpEnv {
  /** External base URL (scheme://host[:port]) clients use; names the MCP resource in OAuth metadata. */
  @EnvUrl({ optional: true }) PUBLIC_BASE_URL?: string;
  /** Hostnames (no port) the MCP endpoint accepts in `Host`, comma separated; empty = no check. */
  @EnvString({ optional: true }) MCP_ALLOWED_HOSTS?: string;
  /** Hostnames (no port) the MCP endpoint accepts in `Origin`, comma separated; empty = no check. */
  @EnvString({ optional: true }) MCP_ALLOWED_ORIGINS?: string;
}

function hostnames(raw: string | undefined): string[] | undefined {
  const names = (raw ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  return names.length > 0 ? names : undefined;
}

export const mcpNamespace = defineNamespace('mcp', McpEnv, (env) => ({
  publicBaseUrl: env.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
  allowedHosts: hostnames(env.MCP_ALLOWED_HOSTS),
  allowedOrigins: hostnames(env.MCP_ALLOWED_ORIGINS),
}));
export type McpConfig = ReturnType<typeof mcpNamespace.map>;
