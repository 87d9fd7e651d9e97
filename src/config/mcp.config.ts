import { randomBytes } from 'node:crypto';
import { MinLength } from 'class-validator';
import { EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
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
  @Describe(
    'key that signs the state an MCP client echoes back (approval questions, client capabilities); every replica needs the same one, at least 32 characters',
    { whenUnset: 'a random key per process (a restart forgets pending questions)' },
  )
  @EnvString({ optional: true })
  @MinLength(32, { message: '$property must be at least 32 characters' })
  MCP_STATE_SECRET?: string;
  @Describe(
    'a tool call still running after this many milliseconds becomes a task (clients that declared the tasks extension); `0` = every call',
  )
  @EnvInt(0, 600000)
  MCP_TASK_THRESHOLD_MS = 5000;
  @Describe('unfinished and kept tasks one account may hold')
  @EnvInt(1, 1000)
  MCP_TASKS_PER_ACCOUNT = 16;
  @Describe('milliseconds a task (and its result) is kept after it was created')
  @EnvInt(1000, 86400000)
  MCP_TASK_TTL_MS = 3600000;
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
  stateSecret: env.MCP_STATE_SECRET ?? randomBytes(32).toString('base64url'),
  tasks: {
    thresholdMs: env.MCP_TASK_THRESHOLD_MS,
    perAccount: env.MCP_TASKS_PER_ACCOUNT,
    ttlMs: env.MCP_TASK_TTL_MS,
  },
}));
export type McpConfig = ReturnType<typeof mcpNamespace.map>;
