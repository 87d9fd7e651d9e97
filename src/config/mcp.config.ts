import { EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

class McpEnv {
  /** External base URL (scheme://host[:port]) clients use; names the MCP resource in OAuth metadata. */
  @Describe(
    'external base URL (`https://agent.example.com`); names the MCP resource in the metadata and the 401 challenge',
    { whenUnset: "the request's scheme and Host" },
  )
  @EnvUrl({ optional: true })
  PUBLIC_BASE_URL?: string;
  /** Hostnames (no port) the MCP endpoint accepts in `Host`, comma separated; empty = no check. */
  @Describe('comma-separated hostnames (no port) the MCP endpoint accepts in `Host`', {
    whenUnset: 'no check, or localhost names with `AUTH_MODE=none` on loopback',
  })
  @EnvString({ optional: true })
  MCP_ALLOWED_HOSTS?: string;
  /** Hostnames (no port) the MCP endpoint accepts in `Origin`, comma separated; empty = no check. */
  @Describe('comma-separated hostnames the MCP endpoint accepts in `Origin` (403 JSON-RPC error otherwise)', {
    whenUnset: 'no check, or localhost names with `AUTH_MODE=none` on loopback',
  })
  @EnvString({ optional: true })
  MCP_ALLOWED_ORIGINS?: string;
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
