import { invalidChatRequest } from './chat.errors';
import { ChatMessage, ChatRole, FunctionTool, ToolChoice } from './chat.types';

/** Bounds on a chat request, checked before any work (the body itself is capped at 4 MB by the parser). */
export const CHAT_LIMITS = { messages: 500, tools: 128, toolNameLength: 64 } as const;

const ROLES: ReadonlySet<string> = new Set<ChatRole>(['system', 'developer', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface ChatRequest {
  model?: string;
  messages: ChatMessage[];
  tools: FunctionTool[];
  tool_choice?: ToolChoice;
  stream: boolean;
  temperature?: number;
  max_tokens?: number;
  session_id?: string;
  kn_id?: string;
  max_tool_rounds?: number;
  /** `stream_options.include_tool_events`: frames carry the seed's event fields (see ChatEventStream). */
  includeToolEvents?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Validates an OpenAI chat request into the documented 400 (`invalid_request_error`, naming `param`):
 * roles, content types, tool calls with ids, every tool message answering a call of an earlier
 * assistant message, function tools with valid names, a well-formed tool_choice (whether a named tool
 * exists is checked once the request's tools are known).
 */
export function parseChatRequest(body: unknown, maxRoundsCap: number): ChatRequest {
  if (!isRecord(body)) throw invalidChatRequest('bodyNotObject');
  const messages = parseMessages(body.messages);
  const tools = parseTools(body.tools);
  const request: ChatRequest = { messages, tools, stream: false };
  if (body.model !== undefined && body.model !== null) {
    if (typeof body.model !== 'string' || body.model.length > 256)
      throw invalidChatRequest('notString', { param: 'model' });
    request.model = body.model || undefined;
  }
  if (body.stream !== undefined && body.stream !== null) {
    if (typeof body.stream !== 'boolean') throw invalidChatRequest('notBoolean', { param: 'stream' });
    request.stream = body.stream;
  }
  request.temperature = optionalNumber(body.temperature, 'temperature', 0, 2);
  request.max_tokens = optionalNumber(body.max_tokens, 'max_tokens', 1, 1_000_000, true);
  request.max_tool_rounds = optionalNumber(body.max_tool_rounds, 'max_tool_rounds', 0, maxRoundsCap, true);
  for (const field of ['session_id', 'kn_id'] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.length > 256) throw invalidChatRequest('notString', { param: field });
    request[field] = value;
  }
  request.tool_choice = parseToolChoice(body.tool_choice);
  const streamOptions = body.stream_options;
  if (isRecord(streamOptions) && streamOptions.include_tool_events !== undefined) {
    if (typeof streamOptions.include_tool_events !== 'boolean') {
      throw invalidChatRequest('notBoolean', { param: 'stream_options.include_tool_events' });
    }
    request.includeToolEvents = streamOptions.include_tool_events;
  }
  return request;
}

function optionalNumber(value: unknown, field: string, min: number, max: number, integer = false): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw invalidChatRequest(integer ? 'integerRange' : 'numberRange', { param: field, min, max });
  }
  return value;
}

function parseMessages(value: unknown): ChatMessage[] {
  if (!Array.isArray(value) || value.length === 0) throw invalidChatRequest('emptyArray', { param: 'messages' });
  if (value.length > CHAT_LIMITS.messages) {
    throw invalidChatRequest('tooMany', { param: 'messages', limit: CHAT_LIMITS.messages });
  }
  const calls = new Set<string>();
  return value.map((entry, index) => {
    const param = `messages[${index}]`;
    if (!isRecord(entry)) throw invalidChatRequest('notObject', { param });
    const role = entry.role;
    if (typeof role !== 'string' || !ROLES.has(role)) {
      throw invalidChatRequest('notOneOf', { param: `${param}.role`, options: [...ROLES].join(', ') });
    }
    const content = entry.content;
    const contentOk =
      typeof content === 'string' ||
      Array.isArray(content) ||
      (content === null && role === 'assistant') ||
      (content === undefined && role === 'assistant');
    if (!contentOk) throw invalidChatRequest('content', { param: `${param}.content` });
    const message: ChatMessage = { role: role as ChatRole, content: (content as ChatMessage['content']) ?? null };
    if (typeof entry.name === 'string') message.name = entry.name;
    if (role === 'assistant' && entry.tool_calls !== undefined && entry.tool_calls !== null) {
      if (!Array.isArray(entry.tool_calls)) throw invalidChatRequest('notArray', { param: `${param}.tool_calls` });
      message.tool_calls = entry.tool_calls.map((call, callIndex) => {
        const callParam = `${param}.tool_calls[${callIndex}]`;
        const fn = isRecord(call) ? call.function : undefined;
        if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(fn) || typeof fn.name !== 'string') {
          throw invalidChatRequest('toolCall', { param: callParam });
        }
        calls.add(call.id);
        return {
          id: call.id,
          type: 'function' as const,
          function: {
            name: fn.name,
            arguments: typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {}),
          },
        };
      });
    }
    if (role === 'tool') {
      if (typeof entry.tool_call_id !== 'string' || !calls.has(entry.tool_call_id)) {
        throw invalidChatRequest('orphanToolMessage', { param: `${param}.tool_call_id`, message: param });
      }
      message.tool_call_id = entry.tool_call_id;
    }
    return message;
  });
}

function parseTools(value: unknown): FunctionTool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidChatRequest('notArray', { param: 'tools' });
  if (value.length > CHAT_LIMITS.tools)
    throw invalidChatRequest('tooMany', { param: 'tools', limit: CHAT_LIMITS.tools });
  const names = new Set<string>();
  return value.map((tool, index) => {
    const param = `tools[${index}]`;
    const fn = isRecord(tool) ? tool.function : undefined;
    if (
      !isRecord(tool) ||
      tool.type !== 'function' ||
      !isRecord(fn) ||
      typeof fn.name !== 'string' ||
      !TOOL_NAME.test(fn.name)
    ) {
      throw invalidChatRequest('toolDefinition', { param });
    }
    if (names.has(fn.name)) throw invalidChatRequest('duplicateTool', { param, name: fn.name });
    names.add(fn.name);
    if (fn.parameters !== undefined && !isRecord(fn.parameters)) {
      throw invalidChatRequest('parametersSchema', { param: `${param}.function.parameters` });
    }
    return {
      type: 'function' as const,
      function: {
        name: fn.name,
        ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
        ...(isRecord(fn.parameters) ? { parameters: fn.parameters } : {}),
      },
    };
  });
}

function parseToolChoice(value: unknown): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === 'auto' || value === 'none' || value === 'required') return value;
  const fn = isRecord(value) ? value.function : undefined;
  if (isRecord(value) && value.type === 'function' && isRecord(fn) && typeof fn.name === 'string') {
    return { type: 'function', function: { name: fn.name } };
  }
  throw invalidChatRequest('toolChoice', { param: 'tool_choice' });
}
