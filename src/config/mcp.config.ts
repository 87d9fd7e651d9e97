import { randomBytes } from 'node:crypto';
import { MinLength } from 'class-validator';
import { EnvInt, EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

class McpEnv {
  /** External base URL (scheme://host[:port]) clients use; names the MCP resource in OAuth metadata. */
  @EnvUrl({ optional: true }) PUBLIC_BASE_URL?: string;
  /** Hostnames (no port) the MCP endpoint accepts in `Host`, comma separated; empty = no check. */
  @EnvString({ optional: true }) MCP_ALLOWED_HOSTS?: string;
  /** Hostnames (no port) the MCP endpoint accepts in `Origin`, comma separated; empty = no check. */
  @EnvString({ optional: true }) MCP_ALLOWED_ORIGINS?: string;
  /**
   * Key that signs the state an MCP client echoes back (approval questions, client capabilities); every
   * replica needs the same one. Unset: a random key per process (a restart forgets pending questions).
   */
  @EnvString({ optional: true })
  @MinLength(32, { message: '$property must be at least 32 characters' })
  MCP_STATE_SECRET?: string;
  /** A tool call still running after this long becomes a task (clients that declared the tasks extension). */
  @EnvInt(0, 600000) MCP_TASK_THRESHOLD_MS = 5000;
  /** Unfinished and kept tasks one account may hold; one more is refused. */
  @EnvInt(1, 1000) MCP_TASKS_PER_ACCOUNT = 16;
  /** How long a task (and its result) is kept after it was created. */
  @EnvInt(1000, 86400000) MCP_TASK_TTL_MS = 3600000;
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
