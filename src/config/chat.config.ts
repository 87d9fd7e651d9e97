import { Matches } from 'class-validator';
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
  /** Largest max_tokens / max_completion_tokens a chat request may ask for; a larger one is a 400 naming it. */
  @EnvInt(1, 1_000_000) CHAT_MAX_OUTPUT_TOKENS = 16384;
  /** Unknown top-level chat request fields sent to the model as given, comma separated; any other is a 400. */
  @EnvString({ optional: true })
  @Matches(/^\s*[A-Za-z_][\w-]{0,63}(\s*,\s*[A-Za-z_][\w-]{0,63})*\s*$/, {
    message: '$property must be field names (letters, digits, _ or -) separated by commas',
  })
  CHAT_PASSTHROUGH_FIELDS?: string;
  @EnvInt(0, 86400) TOOL_CACHE_TTL_S = 60;
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
    maxOutputTokens: env.CHAT_MAX_OUTPUT_TOKENS,
    passthroughFields: (env.CHAT_PASSTHROUGH_FIELDS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
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
