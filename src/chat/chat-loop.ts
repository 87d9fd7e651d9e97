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
import { AnswerText, boundedResult, callKey, ToolCallAssembly } from './turn-bounds';
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
  bounds: TurnBounds;
  stream: boolean;
  signal: AbortSignal;
  emit(event: LoopEvent): void;
  /** Resolves when the client can take more frames (undefined: it can now); the model is not read meanwhile. */
  ready?(): Promise<void> | undefined;
  /** Charges one server-side tool call to the account's rate-limit bucket; false when the bucket is spent. */
  charge?(): Promise<boolean>;
}

/** What one turn may cost, whatever the model asks for (CHAT_MAX_*). */
export interface TurnBounds {
  toolCallsPerRound: number;
  toolCallsPerTurn: number;
  answerBytes: number;
  toolArgumentsBytes: number;
  toolResultBytes: number;
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
  /** Why the turn was cut short (a bound it reached), for the client; absent when it was not. */
  notice?: string;
}

/** A call asked for this many times with the same arguments is not run again. */
const REPEAT_LIMIT = 3;
/** Answer text a streamed turn keeps (the tool rounds echo it to the model); the client already has the rest. */
const STREAMED_TEXT_KEPT = 4096;

/** One model answer as the loop reads it: the first choice, plus the calls asked for beyond the round's bound. */
interface ModelAnswer extends LlmResponse {
  overflow: number;
}

/** How one asked-for call is answered when it is not run. */
type Skipped = 'repeat' | 'budget' | 'rate';

/**
 * One chat turn: the model is called, the server tools it asks for run here (a round's calls
 * concurrently, bounded), their results go back as tool messages, and again — until it answers in
 * text, asks for a tool the client must run (client tool or *confirm* tool: the turn ends with
 * `finish_reason: "tool_calls"`), asks only for calls it already made {@link REPEAT_LIMIT} times, or a
 * bound is reached: the round limit, the tool-call budget of a round or of the turn, the account's rate
 * limit (then one last call without tools so the answer is text; `truncated`), or the answer's size
 * (`finish_reason: "length"`).
 *
 * The model is read from its stream whether or not the client streams, so every bound applies as the
 * answer arrives: nothing the model sends is kept beyond what the loop needs.
 */
export class ChatLoop {
  constructor(
    private readonly llm: LlmPort,
    private readonly executor: ToolExecutor,
  ) {}

  async run(settings: LoopSettings): Promise<LoopResult> {
    const { bounds } = settings;
    const messages = [...settings.messages];
    const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    const toolsCalled: string[] = [];
    const asked = new Map<string, number>();
    const text = new AnswerText(bounds.answerBytes, settings.stream ? STREAMED_TEXT_KEPT : bounds.answerBytes);
    let budget = bounds.toolCallsPerTurn;
    let toolChoice = settings.toolChoice;
    let rounds = 0;
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
    const lastAnswer = async (notice: string): Promise<LoopResult> => {
      const last = await this.call(settings, { ...this.sampling(settings), model: settings.model, messages }, text);
      addUsage(usage, last.usage);
      if (text.full) return finish(last, lengthCut(last, bounds));
      return finish(last, { truncated: true, notice });
    };
    for (;;) {
      const offerTools = settings.tools.size > 0 && toolChoice !== 'none';
      const response = await this.call(
        settings,
        {
          model: settings.model,
          messages,
          ...(offerTools ? { tools: settings.tools.definitions(), tool_choice: toolChoice ?? 'auto' } : {}),
          ...this.sampling(settings),
        },
        text,
      );
      addUsage(usage, response.usage);
      if (text.full) return finish(response, lengthCut(response, bounds));
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
      // Repeats are found per call: a call asked for REPEAT_LIMIT times with the same arguments is not run again.
      const repeated = calls.map((call) => {
        const key = callKey(call);
        const times = (asked.get(key) ?? 0) + 1;
        asked.set(key, times);
        return times >= REPEAT_LIMIT;
      });
      if (repeated.every(Boolean)) {
        const names = [...new Set(calls.map((call) => call.function.name))].join(', ');
        const content = `Stopped: the model called ${names} with the same arguments ${REPEAT_LIMIT} times, so the tool loop ended without an answer.`;
        settings.emit({ type: 'content', delta: content });
        return finish({ ...response, message: { role: 'assistant', content }, finish_reason: 'stop' });
      }
      if (rounds >= settings.maxRounds)
        return lastAnswer(`the tool loop reached its ${settings.maxRounds}-round limit`);
      rounds += 1;
      messages.push({ role: 'assistant', content: response.message.content, tool_calls: calls });
      const skipped = new Map<number, Skipped>();
      const run: number[] = [];
      for (const [index, repeat] of repeated.entries()) {
        if (repeat) skipped.set(index, 'repeat');
        else if (budget <= 0) skipped.set(index, 'budget');
        else if (settings.charge && !(await settings.charge())) skipped.set(index, 'rate');
        else {
          budget -= 1;
          run.push(index);
        }
      }
      const outcomes = await this.runRound(settings, calls, run);
      const overBudget = response.overflow + [...skipped.values()].filter((why) => why === 'budget').length;
      const rateLimited = [...skipped.values()].includes('rate');
      const notice = budgetNotice(bounds, overBudget, rateLimited);
      calls.forEach((call, index) => {
        const why = skipped.get(index);
        let content: string;
        if (why === undefined) {
          toolsCalled.push(call.function.name);
          content = boundedResult(outcomes.get(index)!.content, bounds.toolResultBytes);
        } else {
          content = skippedText(call, why);
          const result = { success: false, content };
          settings.emit({ type: 'tool_result', tool_call_id: call.id, name: call.function.name, result });
        }
        messages.push({ role: 'tool', tool_call_id: call.id, content });
      });
      if (notice) {
        // The model is told once why calls were left out, on the round's last tool message, and answers in text.
        const last = messages[messages.length - 1];
        last.content = `${String(last.content)}\n[${notice}]`;
        return lastAnswer(notice);
      }
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

  /** Runs the calls at `indexes`, at most `concurrency` at a time; their outcomes by index. */
  private async runRound(
    settings: LoopSettings,
    calls: ChatToolCall[],
    indexes: number[],
  ): Promise<Map<number, ToolOutcome>> {
    const outcomes = new Map<number, ToolOutcome>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < indexes.length) {
        const index = indexes[next];
        next += 1;
        const call = calls[index];
        if (settings.signal.aborted) {
          outcomes.set(index, { success: false, content: 'cancelled' });
          continue;
        }
        const tool = settings.tools.get(call.function.name)!;
        const outcome = await this.executor.execute(tool, call, settings.signal);
        outcomes.set(index, outcome);
        settings.emit({ type: 'tool_result', tool_call_id: call.id, name: call.function.name, result: outcome });
      }
    };
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, indexes.length) }, worker));
    if (settings.signal.aborted) throw abortError();
    return outcomes;
  }

  /**
   * One model call, read from its stream: deltas are forwarded as they arrive (content within the turn's
   * bound, tool calls as checked), and the model is not read further while the client is not ready.
   */
  private async call(settings: LoopSettings, request: LlmRequest, text: AnswerText): Promise<ModelAnswer> {
    if (settings.signal.aborted) throw abortError();
    const assembled: ModelAnswer = {
      id: '',
      model: request.model,
      created: 0,
      message: { role: 'assistant', content: null },
      finish_reason: 'stop',
      overflow: 0,
    };
    const calls = new ToolCallAssembly({
      keep: settings.bounds.toolCallsPerRound,
      argumentsBytes: settings.bounds.toolArgumentsBytes,
    });
    text.reset();
    read: for await (const batch of this.llm.stream(request, settings.signal)) {
      for (const chunk of batch) {
        assembled.id ||= chunk.id;
        assembled.model = chunk.model || assembled.model;
        if (chunk.usage) assembled.usage = chunk.usage;
        if (chunk.finish_reason) assembled.finish_reason = chunk.finish_reason;
        if (typeof chunk.delta.content === 'string' && chunk.delta.content !== '') {
          const passed = text.take(chunk.delta.content);
          if (passed !== '' && settings.stream) settings.emit({ type: 'content', delta: passed });
          // Leaving the loop closes the model's stream: nothing more of this answer is read.
          if (text.full) break read;
        }
        if (chunk.delta.tool_calls?.length) {
          const kept = chunk.delta.tool_calls.filter((delta) => calls.add(delta));
          if (kept.length > 0 && settings.stream) settings.emit({ type: 'tool_call', delta: kept });
        }
      }
      const wait = settings.ready?.();
      if (wait) await wait;
      if (settings.signal.aborted) throw abortError();
    }
    const toolCalls = text.full ? [] : calls.calls();
    assembled.overflow = text.full ? 0 : calls.overflow;
    assembled.message = {
      role: 'assistant',
      content: text.text(),
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
    return assembled;
  }
}

/** The answer cut at CHAT_MAX_ANSWER_BYTES: its text so far, `finish_reason: "length"`, and why. */
function lengthCut(response: LlmResponse, bounds: TurnBounds): Partial<LoopResult> {
  return {
    message: { role: 'assistant', content: response.message.content },
    finishReason: 'length',
    notice: `the answer reached ${bounds.answerBytes} bytes (CHAT_MAX_ANSWER_BYTES) and was cut there`,
  };
}

function skippedText(call: ChatToolCall, why: Skipped): string {
  if (why === 'repeat') {
    return `Not run: ${call.function.name} was already called ${REPEAT_LIMIT - 1} times with these arguments; use the earlier result.`;
  }
  return 'Not run.';
}

function budgetNotice(bounds: TurnBounds, overBudget: number, rateLimited: boolean): string | undefined {
  if (rateLimited) return "tool calls were not run: the account's rate limit is spent; answer from what you have";
  if (overBudget === 0) return undefined;
  return `${overBudget} tool calls were not run: at most ${bounds.toolCallsPerRound} per round and ${bounds.toolCallsPerTurn} per turn (CHAT_MAX_TOOL_CALLS, CHAT_MAX_TOOL_CALLS_PER_TURN); answer from what you have`;
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
