import { z } from 'zod';
import { AppException } from '../common/errors/app.exception';
import { invalidChatRequest } from './chat.errors';
import {
  CHAT_LIMITS,
  chatRequestSchema,
  ChatRequestBody,
  ChatRequestSchema,
  NumberBound,
  numberBounds,
  RequestBounds,
  REQUEST_TEXTS,
  RequestText,
} from './chat-request.schema';
import { ChatMessage, FORWARDED_PARAMS, ForwardedParams, FunctionTool, ToolChoice } from './chat.types';

export { CHAT_LIMITS } from './chat-request.schema';

type Issue = z.core.$ZodIssue;
type Args = Record<string, string | number>;

export interface ChatRequest {
  model?: string;
  messages: ChatMessage[];
  tools: FunctionTool[];
  tool_choice?: ToolChoice;
  stream: boolean;
  /** `stream_options.include_tool_events`: this service's switch for the stream's tool event frames. */
  includeToolEvents?: boolean;
  temperature?: number;
  max_tokens?: number;
  /** OpenAI parameters sent as given with every model call of the turn. */
  forwarded: ForwardedParams;
  /** Unknown top-level fields CHAT_PASSTHROUGH_FIELDS lets through, sent as given with every model call. */
  passthrough: Record<string, unknown>;
  session_id?: string;
  kn_id?: string;
  max_tool_rounds?: number;
}

/** The request bounds and the passthrough list, from the `loop` block of the chat config. */
export interface RequestPolicy extends RequestBounds {
  /** Unknown top-level fields sent to the model unchanged (CHAT_PASSTHROUGH_FIELDS); any other is a 400. */
  passthroughFields: readonly string[];
}

const TYPE_TEXTS: Record<string, RequestText> = {
  string: 'notString',
  boolean: 'notBoolean',
  number: 'notNumber',
  int: 'notNumber',
  array: 'notArray',
  object: 'notObject',
  record: 'notObject',
};

/**
 * Validates OpenAI chat requests with one zod schema (chat-request.schema.ts) into the documented 400
 * (`invalid_request_error`, `param` naming the field as `messages[2].role`); unknown top-level fields
 * pass through when the policy names them and are refused otherwise, as OpenAI refuses them.
 */
export class ChatRequestParser {
  private readonly schema: ChatRequestSchema;
  private readonly known: ReadonlySet<string>;
  private readonly passthroughFields: ReadonlySet<string>;
  private readonly numbers: Record<string, NumberBound>;

  constructor(policy: RequestPolicy) {
    this.schema = chatRequestSchema(policy);
    this.known = new Set(Object.keys(this.schema.shape));
    this.passthroughFields = new Set(policy.passthroughFields);
    this.numbers = numberBounds(policy);
  }

  parse(body: unknown): ChatRequest {
    const result = this.schema.safeParse(body);
    if (!result.success) throw this.refusal(result.error.issues[0]);
    return { ...requestOf(result.data), passthrough: this.passthrough(body as Record<string, unknown>) };
  }

  /** A null unknown field is an absent one (some clients send every field they know). */
  private passthrough(body: Record<string, unknown>): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(body)) {
      if (this.known.has(name) || value === null || value === undefined) continue;
      if (!this.passthroughFields.has(name)) throw invalidChatRequest('unknownParameter', { param: name });
      fields[name] = value;
    }
    return fields;
  }

  /** The first zod issue as a 400: the text the schema named (or one for the issue's kind) and the field. */
  private refusal(issue: Issue): AppException {
    const param = fieldPath(issue.path);
    const key = isRequestText(issue.message) ? issue.message : fallbackText(issue);
    const bound = issue.path.length === 1 ? this.numbers[String(issue.path[0])] : undefined;
    return invalidChatRequest(key, param ? { param, ...argsOf(key, issue, bound) } : {});
  }
}

function requestOf(body: ChatRequestBody): Omit<ChatRequest, 'passthrough'> {
  const request: Omit<ChatRequest, 'passthrough'> = {
    messages: body.messages.map(messageOf),
    tools: (body.tools ?? []).map(toolOf),
    stream: body.stream ?? false,
    forwarded: forwardedOf(body),
  };
  if (body.model) request.model = body.model;
  if (body.tool_choice) request.tool_choice = body.tool_choice;
  const includeToolEvents = body.stream_options?.include_tool_events;
  if (includeToolEvents !== undefined && includeToolEvents !== null) request.includeToolEvents = includeToolEvents;
  for (const field of ['temperature', 'max_tokens', 'max_tool_rounds'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null) request[field] = value;
  }
  for (const field of ['session_id', 'kn_id'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null) request[field] = value;
  }
  return request;
}

function forwardedOf(body: ChatRequestBody): ForwardedParams {
  const forwarded: Record<string, unknown> = {};
  for (const field of FORWARDED_PARAMS) {
    if (body[field] !== undefined && body[field] !== null) forwarded[field] = body[field];
  }
  return forwarded as ForwardedParams;
}

function messageOf(entry: ChatRequestBody['messages'][number]): ChatMessage {
  const message: ChatMessage = { role: entry.role, content: entry.content ?? null };
  if (typeof entry.name === 'string') message.name = entry.name;
  if (entry.role === 'assistant' && entry.tool_calls) {
    message.tool_calls = entry.tool_calls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: {
        name: call.function.name,
        arguments:
          typeof call.function.arguments === 'string'
            ? call.function.arguments
            : JSON.stringify(call.function.arguments ?? {}),
      },
    }));
  }
  if (entry.role === 'tool' && entry.tool_call_id) message.tool_call_id = entry.tool_call_id;
  return message;
}

function toolOf(entry: NonNullable<ChatRequestBody['tools']>[number]): FunctionTool {
  const { name, description, parameters, strict } = entry.function;
  return {
    type: 'function',
    function: {
      name,
      ...(typeof description === 'string' ? { description } : {}),
      ...(parameters ? { parameters } : {}),
      ...(typeof strict === 'boolean' ? { strict } : {}),
    },
  };
}

const TEXTS: ReadonlySet<string> = new Set(REQUEST_TEXTS);
const isRequestText = (message: string): message is RequestText => TEXTS.has(message);

/** A text for an issue the schema named none for: by the type expected, else the bound crossed. */
function fallbackText(issue: Issue): RequestText {
  if (issue.code === 'invalid_type') return TYPE_TEXTS[issue.expected] ?? 'invalid';
  if (issue.code === 'too_big')
    return issue.origin === 'string' ? 'tooLong' : issue.origin === 'array' ? 'tooMany' : 'invalid';
  return 'invalid';
}

/** The arguments a text names besides `param`. */
function argsOf(key: RequestText, issue: Issue, bound: NumberBound | undefined): Args {
  switch (key) {
    case 'numberRange':
    case 'integerRange':
      return bound ? { min: bound.min, max: bound.max } : {};
    case 'tooMany':
    case 'tooLong':
      return issue.code === 'too_big' ? { limit: Number(issue.maximum) } : {};
    case 'notOneOf':
      return issue.code === 'invalid_value' ? { options: issue.values.map(String).join(', ') } : {};
    case 'stop':
      return { limit: CHAT_LIMITS.stopSequences, length: CHAT_LIMITS.stopLength };
    case 'orphanToolMessage':
    case 'duplicateTool':
      return issue.code === 'custom' ? (issue.params as Args) : {};
    default:
      return {};
  }
}

/** `messages[2].role`, the way OpenAI's `param` names a field. */
function fieldPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text;
}
