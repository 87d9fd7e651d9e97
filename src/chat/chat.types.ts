import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionNamedToolChoice,
} from 'openai/resources/chat/completions';

/** OpenAI chat-completions shapes as this service speaks them (seed 004, SPEC §10); the `openai` package's where they match. */

export type ChatToolCall = ChatCompletionMessageFunctionToolCall;

export type ChatRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface ChatMessage {
  role: ChatRole;
  /** Text, null (an assistant turn that only calls tools) or content parts passed through as given. */
  content: string | null | unknown[];
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
}

export type FunctionTool = ChatCompletionFunctionTool;

export type ToolChoice = 'auto' | 'none' | 'required' | ChatCompletionNamedToolChoice;

/** The client's OpenAI parameters sent to the model as given (besides temperature and max_tokens). */
export const FORWARDED_PARAMS = [
  'top_p',
  'stop',
  'seed',
  'presence_penalty',
  'frequency_penalty',
  'response_format',
  'max_completion_tokens',
  'parallel_tool_calls',
  'user',
] as const satisfies readonly (keyof ChatCompletionCreateParamsBase)[];

/** The client's OpenAI parameters sent as given with every model call of a turn (README, "Forwarded parameters"). */
export type ForwardedParams = {
  [K in (typeof FORWARDED_PARAMS)[number]]?: NonNullable<ChatCompletionCreateParamsBase[K]>;
};

/** What is sent to the model for one round. */
export interface LlmRequest extends ForwardedParams {
  model: string;
  messages: ChatMessage[];
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  temperature?: number;
  max_tokens?: number;
  /** Top-level fields CHAT_PASSTHROUGH_FIELDS lets through, sent as given; never in place of a field above. */
  passthrough?: Record<string, unknown>;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ChatToolCall[];
}

/** One non-streamed model answer (first choice). */
export interface LlmResponse {
  id: string;
  model: string;
  created: number;
  message: AssistantMessage;
  finish_reason: string;
  usage?: Usage;
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

/** One streamed delta of the first choice, as the upstream sent it. */
export interface LlmChunk {
  id: string;
  model: string;
  created: number;
  delta: { role?: 'assistant'; content?: string | null; tool_calls?: ToolCallDelta[] };
  finish_reason: string | null;
  /** Present on the last chunk when the upstream reports usage in streams. */
  usage?: Usage;
}

/** An OpenAI-compatible model endpoint. */
export abstract class LlmPort {
  /** False when no endpoint is configured: every call is a 503 `model_unavailable`. */
  abstract readonly configured: boolean;
  /** The model ids the endpoint lists (`GET /models`). */
  abstract models(signal?: AbortSignal): Promise<string[]>;
  /** LLM_MODEL, else the first model the endpoint lists. */
  abstract defaultModel(signal?: AbortSignal): Promise<string>;
  abstract complete(request: LlmRequest, signal: AbortSignal): Promise<LlmResponse>;
  /**
   * Deltas as they arrive, in batches: the chunks one read of the answer carried (a token at a time from
   * a slow model, dozens from a fast one), so the per-item cost of async iteration is paid per read.
   * Ends when the upstream sends `[DONE]` or closes the stream.
   */
  abstract stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmChunk[]>;
}
