import { randomHex } from '../common/random/random-hex';
import {
  AssistantMessage,
  ChatMessage,
  ChatToolCall,
  ForwardedParams,
  LlmPort,
  LlmRequest,
  LlmResponse,
  ToolCallDelta,
  ToolChoice,
  Usage,
} from './chat.types';
import { argumentsOf, ToolExecutor } from './tool-executor';
import { ToolOutcome, ToolSet } from './tools/tool-registry';

/** What happens during a turn, in order, for the streaming response. */
export type LoopEvent =
  /** First, before the model is called: the completion every later event belongs to. */
  | { type: 'start'; id: string; created: number; model: string }
  | { type: 'content'; delta: string }
  | { type: 'tool_call'; delta: ToolCallDelta[] }
  | { type: 'tool_result'; tool_call_id: string; name: string; result: ToolOutcome }
  /** The calls the client must run (client or confirm tools): the turn ends with them. */
  | { type: 'client_tool_calls'; tool_calls: ChatToolCall[] };

export interface LoopSettings {
  model: string;
  messages: ChatMessage[];
  tools: ToolSet;
  toolChoice?: ToolChoice;
  temperature?: number;
  maxTokens?: number;
  /** The client's other OpenAI parameters, sent as given with every call. */
  forwarded?: ForwardedParams;
  /** Unknown fields CHAT_PASSTHROUGH_FIELDS lets through, sent as given with every call. */
  passthrough?: Record<string, unknown>;
  maxRounds: number;
  concurrency: number;
  stream: boolean;
  signal: AbortSignal;
  emit(event: LoopEvent): void;
}

export interface LoopResult {
  id: string;
  model: string;
  created: number;
  message: AssistantMessage;
  finishReason: string;
  usage: Usage;
  toolsCalled: string[];
  rounds: number;
  truncated: boolean;
}

const REPEAT_LIMIT = 3;

/**
 * One chat turn: the model is called, the server tools it asks for run here (a round's calls
 * concurrently, bounded), their results go back as tool messages, and again — until it answers in
 * text, asks for a tool the client must run (client tool or *confirm* tool: the turn ends with
 * `finish_reason: "tool_calls"`), repeats the same calls three rounds in a row, or the round limit is
 * reached (one last call without tools so the answer is text; `truncated`).
 */
export class ChatLoop {
  constructor(
    private readonly llm: LlmPort,
    private readonly executor: ToolExecutor,
  ) {}

  async run(settings: LoopSettings): Promise<LoopResult> {
    const messages = [...settings.messages];
    const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const toolsCalled: string[] = [];
    let toolChoice = settings.toolChoice;
    let rounds = 0;
    let repeats = 0;
    let previousRound = '';
    const created = Math.floor(Date.now() / 1000);
    const id = `chatcmpl-${randomHex(12)}`;
    settings.emit({ type: 'start', id, created, model: settings.model });
    const finish = (response: LlmResponse, extra: Partial<LoopResult> = {}): LoopResult => ({
      id,
      model: response.model || settings.model,
      created,
      message: response.message,
      finishReason: response.finish_reason,
      usage,
      toolsCalled,
      rounds,
      truncated: false,
      ...extra,
    });
    for (;;) {
      const offerTools = settings.tools.size > 0 && toolChoice !== 'none';
      const response = await this.call(settings, {
        model: settings.model,
        messages,
        ...(offerTools ? { tools: settings.tools.definitions(), tool_choice: toolChoice ?? 'auto' } : {}),
        ...this.sampling(settings),
      });
      addUsage(usage, response.usage);
      const calls = response.message.tool_calls ?? [];
      if (calls.length === 0 || !offerTools) return finish(response);
      // A call the client must run (its own tool, a confirm tool, or one nobody offers) ends the turn here.
      const forClient = calls.some((call) => settings.tools.get(call.function.name)?.mode !== 'auto');
      if (forClient) {
        for (const call of calls) {
          const tool = settings.tools.get(call.function.name);
          if (tool?.mode === 'confirm' || tool?.mode === 'denied')
            tool.handOver?.(argumentsOf(call.function.arguments));
        }
        settings.emit({ type: 'client_tool_calls', tool_calls: calls });
        return finish({ ...response, finish_reason: 'tool_calls' });
      }
      const signature = JSON.stringify(calls.map((call) => [call.function.name, call.function.arguments]));
      repeats = signature === previousRound ? repeats + 1 : 1;
      previousRound = signature;
      if (repeats >= REPEAT_LIMIT) {
        const names = [...new Set(calls.map((call) => call.function.name))].join(', ');
        const content = `Stopped: the model called ${names} with the same arguments ${REPEAT_LIMIT} times in a row, so the tool loop ended without an answer.`;
        settings.emit({ type: 'content', delta: content });
        return finish({ ...response, message: { role: 'assistant', content }, finish_reason: 'stop' });
      }
      if (rounds >= settings.maxRounds) {
        const last = await this.call(settings, { ...this.sampling(settings), model: settings.model, messages });
        addUsage(usage, last.usage);
        return finish(last, { truncated: true });
      }
      rounds += 1;
      messages.push({ role: 'assistant', content: response.message.content, tool_calls: calls });
      const outcomes = await this.runRound(settings, calls);
      calls.forEach((call, index) => {
        toolsCalled.push(call.function.name);
        messages.push({ role: 'tool', tool_call_id: call.id, content: outcomes[index].content });
      });
      // After the first round the model chooses freely: required or a named tool would loop forever.
      if (toolChoice === 'required' || typeof toolChoice === 'object') toolChoice = 'auto';
    }
  }

  /** The client's sampling and forwarded parameters, sent with every call of the turn. */
  private sampling(settings: LoopSettings): Omit<LlmRequest, 'model' | 'messages' | 'tools' | 'tool_choice'> {
    return {
      ...settings.forwarded,
      ...(settings.temperature !== undefined ? { temperature: settings.temperature } : {}),
      ...(settings.maxTokens !== undefined ? { max_tokens: settings.maxTokens } : {}),
      ...(settings.passthrough ? { passthrough: settings.passthrough } : {}),
    };
  }

  private async runRound(settings: LoopSettings, calls: ChatToolCall[]): Promise<ToolOutcome[]> {
    const outcomes: ToolOutcome[] = new Array<ToolOutcome>(calls.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < calls.length) {
        const index = next;
        next += 1;
        const call = calls[index];
        if (settings.signal.aborted) {
          outcomes[index] = { success: false, content: 'cancelled' };
          continue;
        }
        const tool = settings.tools.get(call.function.name)!;
        outcomes[index] = await this.executor.execute(tool, call, settings.signal);
        settings.emit({
          type: 'tool_result',
          tool_call_id: call.id,
          name: call.function.name,
          result: outcomes[index],
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, calls.length) }, worker));
    if (settings.signal.aborted) throw abortError();
    return outcomes;
  }

  /** One model call; streamed deltas are forwarded as they arrive and assembled into the answer. */
  private async call(settings: LoopSettings, request: LlmRequest): Promise<LlmResponse> {
    if (settings.signal.aborted) throw abortError();
    if (!settings.stream) return this.llm.complete(request, settings.signal);
    const assembled: LlmResponse = {
      id: '',
      model: request.model,
      created: 0,
      message: { role: 'assistant', content: null },
      finish_reason: 'stop',
    };
    const calls: ChatToolCall[] = [];
    let content = '';
    for await (const batch of this.llm.stream(request, settings.signal)) {
      for (const chunk of batch) {
        assembled.id ||= chunk.id;
        assembled.model = chunk.model || assembled.model;
        if (chunk.usage) assembled.usage = chunk.usage;
        if (chunk.finish_reason) assembled.finish_reason = chunk.finish_reason;
        if (typeof chunk.delta.content === 'string' && chunk.delta.content !== '') {
          content += chunk.delta.content;
          settings.emit({ type: 'content', delta: chunk.delta.content });
        }
        if (chunk.delta.tool_calls?.length) {
          settings.emit({ type: 'tool_call', delta: chunk.delta.tool_calls });
          for (const delta of chunk.delta.tool_calls) mergeToolCall(calls, delta);
        }
      }
    }
    assembled.message = { role: 'assistant', content: content || null, ...(calls.length ? { tool_calls: calls } : {}) };
    return assembled;
  }
}

function mergeToolCall(calls: ChatToolCall[], delta: ToolCallDelta): void {
  const call = (calls[delta.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
  if (delta.id) call.id = delta.id;
  if (delta.function?.name) call.function.name += delta.function.name;
  if (delta.function?.arguments) call.function.arguments += delta.function.arguments;
}

function addUsage(total: Usage, usage: Usage | undefined): void {
  if (!usage) return;
  total.prompt_tokens += usage.prompt_tokens ?? 0;
  total.completion_tokens += usage.completion_tokens ?? 0;
  total.total_tokens += usage.total_tokens ?? 0;
}

function abortError(): Error {
  const error = new Error('the client went away');
  error.name = 'AbortError';
  return error;
}
