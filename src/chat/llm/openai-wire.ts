import { AppException } from '../../common/errors/app.exception';
import { ChatErrors, modelError } from '../chat.errors';
import { AssistantMessage, ChatToolCall, LlmChunk, LlmRequest, LlmResponse, ToolCallDelta, Usage } from '../chat.types';

/** Conversions between the OpenAI chat-completions wire bodies and this service's `LlmResponse` / `LlmChunk`. */

type JsonObject = Record<string, unknown>;
type Identity = Pick<LlmChunk, 'id' | 'model' | 'created'>;

export const malformedAnswer = (): AppException => modelError(ChatErrors.ModelFailed, 'malformed');

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** The JSON object a body holds, or undefined when it holds something else. */
export function parseObject(text: string): JsonObject | undefined {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** A body that is not a JSON object is a malformed answer. */
export function parseAnswer(text: string): JsonObject {
  const answer = parseObject(text);
  if (!answer) throw malformedAnswer();
  return answer;
}

/**
 * The body of one call: passthrough fields first, so none replaces a field this service sets;
 * parallel_tool_calls only beside tools (OpenAI refuses it without them); usage asked for in streams.
 */
export function requestBody(request: LlmRequest, stream: boolean): JsonObject {
  const { passthrough, parallel_tool_calls: parallelToolCalls, ...fields } = request;
  return {
    ...passthrough,
    ...fields,
    ...(parallelToolCalls !== undefined && fields.tools?.length ? { parallel_tool_calls: parallelToolCalls } : {}),
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
}

/** The ids of `GET /models` (`{data: [{id}]}`), in the order listed. */
export function modelIds(body: JsonObject): string[] {
  if (!Array.isArray(body.data)) throw malformedAnswer();
  return body.data.map((entry) => asObject(entry)?.id).filter((id): id is string => typeof id === 'string');
}

/** The first choice of a non-streamed answer. */
export function responseFromAnswer(answer: JsonObject, requestedModel: string): LlmResponse {
  const choice = firstChoice(answer);
  const message = asObject(choice?.message);
  if (!choice || !message) throw malformedAnswer();
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.map(toolCallOf) : [];
  const assistant: AssistantMessage = { role: 'assistant', content: textOf(message.content) };
  if (toolCalls.length > 0) assistant.tool_calls = toolCalls;
  const finishReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : undefined;
  const response: LlmResponse = {
    ...identityOf(answer, requestedModel),
    message: assistant,
    finish_reason: finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
  };
  const usage = usageOf(answer);
  if (usage) response.usage = usage;
  return response;
}

/**
 * One streamed frame as a chunk; a frame with neither a choice nor usage (a keep-alive) gives none.
 * Runs for every frame of every answer, so the chunk is one literal with every field (no spread, no
 * field added later): every chunk has the same shape.
 */
export function chunkFromFrame(frame: JsonObject, requestedModel: string): LlmChunk | undefined {
  if (frame.error !== undefined && frame.error !== null) {
    throw modelError(ChatErrors.ModelFailed, 'streamError');
  }
  const choice = firstChoice(frame);
  const usage = usageOf(frame);
  if (!choice && !usage) return undefined;
  const { id, model, created } = identityOf(frame, requestedModel);
  const finishReason = choice?.finish_reason;
  return {
    id,
    model,
    created,
    delta: deltaOf(asObject(choice?.delta)),
    finish_reason: typeof finishReason === 'string' ? finishReason : null,
    usage,
  };
}

/** A whole answer replayed as the chunks a stream would have carried: role and content, tool calls, finish. */
export function chunksFromResponse(response: LlmResponse): LlmChunk[] {
  const identity: Identity = { id: response.id, model: response.model, created: response.created };
  const chunks: LlmChunk[] = [
    { ...identity, delta: { role: 'assistant', content: response.message.content }, finish_reason: null },
  ];
  const toolCalls = response.message.tool_calls ?? [];
  if (toolCalls.length > 0) {
    const deltas = toolCalls.map((call, index): ToolCallDelta => ({ index, ...call, function: { ...call.function } }));
    chunks.push({ ...identity, delta: { tool_calls: deltas }, finish_reason: null });
  }
  const last: LlmChunk = { ...identity, delta: {}, finish_reason: response.finish_reason };
  if (response.usage) last.usage = response.usage;
  chunks.push(last);
  return chunks;
}

function firstChoice(body: JsonObject): JsonObject | undefined {
  return Array.isArray(body.choices) ? asObject(body.choices[0]) : undefined;
}

function identityOf(body: JsonObject, requestedModel: string): Identity {
  return {
    id: typeof body.id === 'string' ? body.id : '',
    model: typeof body.model === 'string' ? body.model : requestedModel,
    created: typeof body.created === 'number' ? body.created : Math.floor(Date.now() / 1000),
  };
}

function usageOf(body: JsonObject): Usage | undefined {
  const usage = asObject(body.usage);
  if (!usage) return undefined;
  const count = (value: unknown): number => (typeof value === 'number' ? value : 0);
  return {
    prompt_tokens: count(usage.prompt_tokens),
    completion_tokens: count(usage.completion_tokens),
    total_tokens: count(usage.total_tokens),
  };
}

function textOf(content: unknown): string | null {
  return typeof content === 'string' ? content : null;
}

/** Some endpoints send tool arguments as an object rather than the JSON text OpenAI specifies. */
function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

function toolCallOf(value: unknown): ChatToolCall {
  const call = asObject(value);
  const fn = asObject(call?.function);
  if (!call || !fn || typeof fn.name !== 'string') throw malformedAnswer();
  return {
    id: typeof call.id === 'string' ? call.id : '',
    type: 'function',
    function: { name: fn.name, arguments: argumentsText(fn.arguments) },
  };
}

/** Every delta has the same three fields (undefined when the frame lacks them): one shape for the hot loop. */
function deltaOf(delta: JsonObject | undefined): LlmChunk['delta'] {
  const content = delta?.content;
  return {
    role: delta?.role === 'assistant' ? 'assistant' : undefined,
    content: typeof content === 'string' || content === null ? content : undefined,
    tool_calls: Array.isArray(delta?.tool_calls) ? delta.tool_calls.map(toolCallDeltaOf) : undefined,
  };
}

/** Deltas of a tool call are matched by `index`; an endpoint that omits it gets the position instead. */
function toolCallDeltaOf(value: unknown, position: number): ToolCallDelta {
  const call = asObject(value) ?? {};
  const result: ToolCallDelta = { index: typeof call.index === 'number' ? call.index : position };
  if (typeof call.id === 'string') result.id = call.id;
  if (call.type === 'function') result.type = 'function';
  const fn = asObject(call.function);
  if (fn) {
    result.function = {};
    if (typeof fn.name === 'string') result.function.name = fn.name;
    if (typeof fn.arguments === 'string' || asObject(fn.arguments))
      result.function.arguments = argumentsText(fn.arguments);
  }
  return result;
}
