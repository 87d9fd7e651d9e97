import { Matches } from 'class-validator';
import { EnvInt, EnvString, EnvUrl, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

/** Chat completions (SPEC §10): the model endpoint, the tool loop, sessions and workspaces. */
class ChatEnv {
  /** OpenAI-compatible endpoint, e.g. `http://ollama:11434/v1`; unset = chat answers 503 model_unavailable. */
  @Describe('OpenAI-compatible endpoint (`/v1` is appended when missing); unset → 503 `model_unavailable`')
  @EnvUrl({ optional: true })
  LLM_BASE_URL?: string;
  @Describe('Bearer key of that endpoint (never logged)')
  @EnvString({ optional: true })
  LLM_API_KEY?: string;
  /** Model used when a request names none; unset = the first model the endpoint lists. */
  @Describe('Model when a request names none; unset → the first model the endpoint lists')
  @EnvString({ optional: true })
  LLM_MODEL?: string;
  @Describe("Deadline until the endpoint's response headers")
  @EnvInt(100, 600000)
  LLM_CONNECT_TIMEOUT_MS = 10000;
  /** Longest silence allowed while waiting for the answer or between streamed chunks. */
  @Describe('Longest silence while reading an answer or between streamed chunks')
  @EnvInt(100, 3600000)
  LLM_IDLE_TIMEOUT_MS = 120000;
  /** Retries of a call that failed before its first byte (refused, reset, 502/503/504). */
  @Describe('Retries of a call that failed before its first byte (refused, reset, 502/503/504)')
  @EnvInt(0, 5)
  LLM_RETRIES = 1;
  @Describe('Tool rounds per turn (a request may ask for up to 32 with `max_tool_rounds`)')
  @EnvInt(1, 32)
  CHAT_MAX_TOOL_ROUNDS = 8;
  @Describe('One tool call')
  @EnvInt(100, 600000)
  CHAT_TOOL_TIMEOUT_MS = 30000;
  @Describe('Calls of one round running at once')
  @EnvInt(1, 32)
  CHAT_TOOL_CONCURRENCY = 4;
  /** Largest max_tokens / max_completion_tokens a chat request may ask for; a larger one is a 400 naming it. */
  @Describe('`max_tokens` / `max_completion_tokens` a request may ask for (400 over it)')
  @EnvInt(1, 1_000_000)
  CHAT_MAX_OUTPUT_TOKENS = 16384;
  /** Unknown top-level chat request fields sent to the model as given, comma separated; any other is a 400. */
  @Describe('Unknown top-level request fields sent to the model unchanged (others are a 400)')
  @EnvString({ optional: true })
  @Matches(/^\s*[A-Za-z_][\w-]{0,63}(\s*,\s*[A-Za-z_][\w-]{0,63})*\s*$/, {
    message: '$property must be field names (letters, digits, _ or -) separated by commas',
  })
  CHAT_PASSTHROUGH_FIELDS?: string;
  @Describe('Seconds an identical read-only tool call of a session reuses its result; `0` = off')
  @EnvInt(0, 86400)
  TOOL_CACHE_TTL_S = 60;
  /** Bytes of server tool definitions offered per model call (find_tools reveals the rest); 0 = every tool. */
  @Describe('Server tool definitions offered per model call (`find_tools` reveals the rest; `0` = every tool)')
  @EnvInt(0, 1024 * 1024)
  CHAT_TOOL_DEFINITIONS_BUDGET_BYTES = 8192;
  /** Folder of the workspaces, `<root>/<sha256 of the account>/<session_id>`; relative = from the project root. */
  @Describe(
    "Folder of the session workspaces, `<root>/<SHA-256 of the account>/<session_id>` (relative to the project root); must be writable by the service's user (the Docker image sets `/tmp/agent-retrieval/workspaces`)",
  )
  @EnvString()
  WORKSPACE_ROOT = 'data/workspaces';
  /** Idle seconds after which a workspace whose session_id the client chose is removed. */
  @Describe('Idle seconds after which a workspace whose `session_id` the client chose is removed')
  @EnvInt(60, 30 * 86400)
  WORKSPACE_TTL_S = 86400;
  /** Idle seconds after which a workspace the server named (the client sent no session_id) is removed. */
  @Describe('Idle seconds after which a workspace the server named (no `session_id` sent) is removed')
  @EnvInt(60, 30 * 86400)
  WORKSPACE_EPHEMERAL_TTL_S = 600;
  @Describe('Largest file a workspace tool writes or reads')
  @EnvInt(1024, 100 * 1024 * 1024)
  WORKSPACE_MAX_FILE_BYTES = 1024 * 1024;
  @Describe('Total file bytes of one workspace')
  @EnvInt(1024, 1024 * 1024 * 1024)
  WORKSPACE_MAX_BYTES = 20 * 1024 * 1024;
  @Describe('Files in one workspace')
  @EnvInt(1, 100000)
  WORKSPACE_MAX_FILES = 200;
  /** Workspaces one account may hold at once, on one volume (replicas sharing the volume share the count). */
  @Describe('Workspaces one account holds at once (per volume; replicas sharing it share the count)')
  @EnvInt(1, 100000)
  WORKSPACE_ACCOUNT_MAX_SESSIONS = 20;
  /** File bytes of all of one account's workspaces together. */
  @Describe("File bytes of all of one account's workspaces together")
  @EnvInt(1024, 1024 * 1024 * 1024 * 1024)
  WORKSPACE_ACCOUNT_MAX_BYTES = 100 * 1024 * 1024;
  /** Files and folders of all of one account's workspaces together (inodes). */
  @Describe("Files and folders (inodes) of all of one account's workspaces together")
  @EnvInt(1, 10000000)
  WORKSPACE_ACCOUNT_MAX_FILES = 2000;

  // Bounds on one turn, whatever the model or the client does (README: limits of the chat door).
  /** Tool calls run per round; a round asking for more runs these and ends the turn (`truncated`). */
  @Describe('Tool calls run per round; also how far a tool call `index` may skip ahead')
  @EnvInt(1, 256)
  CHAT_MAX_TOOL_CALLS = 16;
  /** Tool calls run per turn, over every round. */
  @Describe("Tool calls run per turn, over every round (each one hit of the account's `RATE_LIMIT_MAX`)")
  @EnvInt(1, 1000)
  CHAT_MAX_TOOL_CALLS_PER_TURN = 64;
  /** Answer text per turn, over every round, streamed or not; over it the turn ends with `finish_reason: "length"`. */
  @Describe('Answer text per turn, streamed or not (`finish_reason: "length"` over it)')
  @EnvInt(1024, 64 * 1024 * 1024)
  CHAT_MAX_ANSWER_BYTES = 1024 * 1024;
  /** One tool call's `arguments` text; a model sending more ends the turn with 502 `model_error`. */
  @Describe("One tool call's `arguments` from the model (502 `model_error` over it)")
  @EnvInt(1024, 16 * 1024 * 1024)
  CHAT_MAX_TOOL_ARGUMENTS_BYTES = 64 * 1024;
  /** One tool result as the model reads it; longer results are cut with a note. */
  @Describe('One tool result as the model reads it (cut with a note)')
  @EnvInt(1024, 16 * 1024 * 1024)
  CHAT_MAX_TOOL_RESULT_BYTES = 64 * 1024;
  /** Chat completions one account may have in progress at once (per replica); 429 over it. */
  @Describe('Completions one account has in progress on a replica (429 over it)')
  @EnvInt(1, 10000)
  CHAT_MAX_STREAMS_PER_ACCOUNT = 4;
  /** How long a streaming client may read nothing while frames wait for it before it is cut off. */
  @Describe('How long a streaming client may read nothing before it is cut off')
  @EnvInt(1000, 3600000)
  CHAT_CLIENT_IDLE_MS = 30000;
}

export const chatNamespace = defineNamespace('chat', ChatEnv, (env) => ({
  llm: {
    baseUrl: env.LLM_BASE_URL?.replace(/\/+$/, ''),
    apiKey: env.LLM_API_KEY,
    model: env.LLM_MODEL,
    connectTimeoutMs: env.LLM_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: env.LLM_IDLE_TIMEOUT_MS,
    retries: env.LLM_RETRIES,
    /**
     * The most of one answer (a JSON body, or one event of a stream) read from the model: the answer text
     * and a round's tool-call arguments at their bounds, plus room for the JSON around them.
     */
    maxResponseBytes:
      env.CHAT_MAX_ANSWER_BYTES + env.CHAT_MAX_TOOL_CALLS * env.CHAT_MAX_TOOL_ARGUMENTS_BYTES + 64 * 1024,
  },
  loop: {
    maxRounds: env.CHAT_MAX_TOOL_ROUNDS,
    roundsCap: 32,
    toolTimeoutMs: env.CHAT_TOOL_TIMEOUT_MS,
    toolConcurrency: env.CHAT_TOOL_CONCURRENCY,
    toolCacheTtlSeconds: env.TOOL_CACHE_TTL_S,
    definitionsBudgetBytes: env.CHAT_TOOL_DEFINITIONS_BUDGET_BYTES,
    maxOutputTokens: env.CHAT_MAX_OUTPUT_TOKENS,
    passthroughFields: (env.CHAT_PASSTHROUGH_FIELDS ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  },
  bounds: {
    toolCallsPerRound: env.CHAT_MAX_TOOL_CALLS,
    toolCallsPerTurn: env.CHAT_MAX_TOOL_CALLS_PER_TURN,
    answerBytes: env.CHAT_MAX_ANSWER_BYTES,
    toolArgumentsBytes: env.CHAT_MAX_TOOL_ARGUMENTS_BYTES,
    toolResultBytes: env.CHAT_MAX_TOOL_RESULT_BYTES,
    streamsPerAccount: env.CHAT_MAX_STREAMS_PER_ACCOUNT,
    clientIdleMs: env.CHAT_CLIENT_IDLE_MS,
  },
  workspace: {
    root: env.WORKSPACE_ROOT,
    ttlSeconds: env.WORKSPACE_TTL_S,
    ephemeralTtlSeconds: env.WORKSPACE_EPHEMERAL_TTL_S,
    maxFileBytes: env.WORKSPACE_MAX_FILE_BYTES,
    maxBytes: env.WORKSPACE_MAX_BYTES,
    maxFiles: env.WORKSPACE_MAX_FILES,
    account: {
      maxSessions: env.WORKSPACE_ACCOUNT_MAX_SESSIONS,
      maxBytes: env.WORKSPACE_ACCOUNT_MAX_BYTES,
      maxEntries: env.WORKSPACE_ACCOUNT_MAX_FILES,
    },
  },
}));
export type ChatConfig = ReturnType<typeof chatNamespace.map>;
export type LlmConfig = ChatConfig['llm'];
export type WorkspaceConfig = ChatConfig['workspace'];
export type ChatBounds = ChatConfig['bounds'];
