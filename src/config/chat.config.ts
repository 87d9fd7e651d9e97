import { EnvInt, EnvString, EnvUrl } from './env.decorators';
import { defineNamespace } from './config.loader';

/** Chat completions (SPEC §10): the model endpoint, the tool loop, sessions and workspaces. */
class ChatEnv {
  /** OpenAI-compatible endpoint, e.g. `http://ollama:11434/v1`; unset = chat answers 503 model_unavailable. */
  @EnvUrl({ optional: true }) LLM_BASE_URL?: string;
  @EnvString({ optional: true }) LLM_API_KEY?: string;
  /** Model used when a request names none; unset = the first model the endpoint lists. */
  @EnvString({ optional: true }) LLM_MODEL?: string;
  @EnvInt(100, 600000) LLM_CONNECT_TIMEOUT_MS = 10000;
  /** Longest silence allowed while waiting for the answer or between streamed chunks. */
  @EnvInt(100, 3600000) LLM_IDLE_TIMEOUT_MS = 120000;
  /** Retries of a call that failed before its first byte (refused, reset, 502/503/504). */
  @EnvInt(0, 5) LLM_RETRIES = 1;
  @EnvInt(1, 32) CHAT_MAX_TOOL_ROUNDS = 8;
  @EnvInt(100, 600000) CHAT_TOOL_TIMEOUT_MS = 30000;
  @EnvInt(1, 32) CHAT_TOOL_CONCURRENCY = 4;
  @EnvInt(0, 86400) TOOL_CACHE_TTL_S = 60;
  /** Bytes of server tool definitions offered per model call (find_tools reveals the rest); 0 = every tool. */
  @EnvInt(0, 1024 * 1024) CHAT_TOOL_DEFINITIONS_BUDGET_BYTES = 8192;
  @EnvString() WORKSPACE_ROOT = 'data/workspaces';
  @EnvInt(60, 30 * 86400) WORKSPACE_TTL_S = 86400;
  @EnvInt(1024, 100 * 1024 * 1024) WORKSPACE_MAX_FILE_BYTES = 1024 * 1024;
  @EnvInt(1024, 1024 * 1024 * 1024) WORKSPACE_MAX_BYTES = 20 * 1024 * 1024;
  @EnvInt(1, 100000) WORKSPACE_MAX_FILES = 200;
}

export const chatNamespace = defineNamespace('chat', ChatEnv, (env) => ({
  llm: {
    baseUrl: env.LLM_BASE_URL?.replace(/\/+$/, ''),
    apiKey: env.LLM_API_KEY,
    model: env.LLM_MODEL,
    connectTimeoutMs: env.LLM_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: env.LLM_IDLE_TIMEOUT_MS,
    retries: env.LLM_RETRIES,
  },
  loop: {
    maxRounds: env.CHAT_MAX_TOOL_ROUNDS,
    roundsCap: 32,
    toolTimeoutMs: env.CHAT_TOOL_TIMEOUT_MS,
    toolConcurrency: env.CHAT_TOOL_CONCURRENCY,
    toolCacheTtlSeconds: env.TOOL_CACHE_TTL_S,
    definitionsBudgetBytes: env.CHAT_TOOL_DEFINITIONS_BUDGET_BYTES,
  },
  workspace: {
    root: env.WORKSPACE_ROOT,
    ttlSeconds: env.WORKSPACE_TTL_S,
    maxFileBytes: env.WORKSPACE_MAX_FILE_BYTES,
    maxBytes: env.WORKSPACE_MAX_BYTES,
    maxFiles: env.WORKSPACE_MAX_FILES,
  },
}));
export type ChatConfig = ReturnType<typeof chatNamespace.map>;
export type LlmConfig = ChatConfig['llm'];
export type WorkspaceConfig = ChatConfig['workspace'];
