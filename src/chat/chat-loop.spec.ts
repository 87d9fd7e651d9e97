import { Logger } from '@nestjs/common';
import { ChatLoop, LoopEvent, LoopSettings } from './chat-loop';
import {
  AssistantMessage,
  ChatMessage,
  ChatToolCall,
  LlmChunk,
  LlmPort,
  LlmRequest,
  LlmResponse,
  ToolCallDelta,
  Usage,
} from './chat.types';
import { ToolExecutor } from './tool-executor';
import { ChatTool, ToolOutcome, ToolSet } from './tools/tool-registry';

const USER: ChatMessage = { role: 'user', content: 'Which suppliers ship to Lyon?' };
const IDENTITY = { id: 'resp_1', model: 'm1', created: 1700000000 };

/** One scripted model answer: its message and the usage it reports. */
interface Answer {
  message: AssistantMessage;
  usage?: Usage;
}

const text = (content: string, usage?: Usage): Answer => ({ message: { role: 'assistant', content }, usage });

/** An answer calling tools, given as [name, arguments text]; ids are call_0, call_1, … */
const calling = (...calls: [name: string, args: string][]): Answer => ({
  message: {
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([name, args], index) => ({
      id: `call_${index}`,
      type: 'function',
      function: { name, arguments: args },
    })),
  },
});

const usage = (prompt: number, completion: number): Usage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

const halves = (value: string): [string, string] => {
  const middle = Math.ceil(value.length / 2);
  return [value.slice(0, middle), value.slice(middle)];
};

/** The deltas an upstream would stream for an answer: content and each call's arguments in two pieces. */
function chunksOf(answer: Answer): LlmChunk[] {
  const chunk = (delta: LlmChunk['delta'], finish: string | null = null): LlmChunk => ({
    ...IDENTITY,
    delta,
    finish_reason: finish,
  });
  const chunks = [chunk({ role: 'assistant' })];
  if (answer.message.content)
    for (const piece of halves(answer.message.content)) chunks.push(chunk({ content: piece }));
  (answer.message.tool_calls ?? []).forEach((call, index) => {
    const [head, tail] = halves(call.function.arguments);
    const first: ToolCallDelta = {
      index,
      id: call.id,
      type: 'function',
      function: { name: call.function.name, arguments: head },
    };
    chunks.push(chunk({ tool_calls: [first] }), chunk({ tool_calls: [{ index, function: { arguments: tail } }] }));
  });
  const last = chunk({}, answer.message.tool_calls ? 'tool_calls' : 'stop');
  return [...chunks, answer.usage ? { ...last, usage: answer.usage } : last];
}

/** A model endpoint that answers from a script and keeps a copy of every request. */
class ScriptedLlm extends LlmPort {
  readonly configured = true;
  readonly requests: LlmRequest[] = [];
  readonly modes: ('complete' | 'stream')[] = [];
  /** Runs as each request arrives, before the answer is given. */
  onRequest?: (request: LlmRequest) => void;

  constructor(private readonly answers: Answer[]) {
    super();
  }

  models(): Promise<string[]> {
    return Promise.resolve(['m1']);
  }

  defaultModel(): Promise<string> {
    return Promise.resolve('m1');
  }

  complete(request: LlmRequest): Promise<LlmResponse> {
    const answer = this.take(request, 'complete');
    return Promise.resolve({
      ...IDENTITY,
      message: answer.message,
      finish_reason: answer.message.tool_calls ? 'tool_calls' : 'stop',
      ...(answer.usage ? { usage: answer.usage } : {}),
    });
  }

  /** Batches the loop has taken from the current stream, and streams it left before their end. */
  pulled = 0;
  returned = 0;

  /** One chunk per batch, as a model sending a token at a time would arrive. */
  async *stream(request: LlmRequest): AsyncIterable<LlmChunk[]> {
    const chunks = chunksOf(this.take(request, 'stream'));
    this.pulled = 0;
    let ended = false;
    try {
      for (const chunk of chunks) {
        this.pulled += 1;
        yield await Promise.resolve([chunk]);
      }
      ended = true;
    } finally {
      if (!ended) this.returned += 1;
    }
  }

  private take(request: LlmRequest, mode: 'complete' | 'stream'): Answer {
    // The loop keeps appending to the same messages array, so each request is copied as it was sent.
    this.requests.push(structuredClone(request));
    this.modes.push(mode);
    this.onRequest?.(request);
    const answer = this.answers.shift();
    if (!answer) throw new Error('the script has no answer left');
    return answer;
  }
}

type Run = jest.Mock<Promise<ToolOutcome>, [Record<string, unknown>]>;

const replying = (content: string): Run =>
  jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>().mockResolvedValue({ success: true, content });

/** A tool this service runs; its run is a mock so tests can see whether and how it ran. */
type ServerTool = ChatTool & { run: Run };

function serverTool(
  name: string,
  run: Run = replying(`${name} result`),
  overrides: Partial<Omit<ChatTool, 'run'>> = {},
): ServerTool {
  return {
    name,
    definition: { type: 'function', function: { name, parameters: { type: 'object' } } },
    kind: 'server',
    mode: 'auto',
    readOnly: true,
    ...overrides,
    run,
  };
}

function clientTool(name: string): ChatTool {
  return {
    name,
    definition: { type: 'function', function: { name } },
    kind: 'client',
    mode: 'client',
    readOnly: false,
  };
}

const BOUNDS = {
  toolCallsPerRound: 16,
  toolCallsPerTurn: 64,
  answerBytes: 1024 * 1024,
  toolArgumentsBytes: 64 * 1024,
  toolResultBytes: 64 * 1024,
};

const toolSet = (...tools: ChatTool[]): ToolSet => new ToolSet(new Map(tools.map((tool) => [tool.name, tool])));

function setup(answers: Answer[], tools: ToolSet, overrides: Partial<LoopSettings> = {}) {
  const llm = new ScriptedLlm(answers);
  const loop = new ChatLoop(llm, new ToolExecutor({ timeoutMs: 1000 }, { record: () => undefined }));
  const events: LoopEvent[] = [];
  const settings: LoopSettings = {
    model: 'm1',
    messages: [USER],
    tools,
    maxRounds: 4,
    concurrency: 4,
    bounds: BOUNDS,
    stream: false,
    signal: new AbortController().signal,
    emit: (event) => events.push(event),
    ...overrides,
  };
  return { llm, events, settings, run: () => loop.run(settings) };
}

const eventsOf = <T extends LoopEvent['type']>(events: LoopEvent[], type: T) =>
  events.filter((event): event is Extract<LoopEvent, { type: T }> => event.type === type);

async function abortErrorOf(attempt: Promise<unknown>): Promise<Error> {
  const error = await attempt.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).name).toBe('AbortError');
  return error as Error;
}

describe('ChatLoop', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('returns a text answer after one call that offered every tool', async () => {
    const search = serverTool('search');
    const { llm, events, run } = setup([text('Three suppliers.', usage(9, 3))], toolSet(search), {
      temperature: 0.2,
      maxTokens: 100,
    });
    const result = await run();
    expect(result).toEqual({
      id: expect.stringMatching(/^chatcmpl-[0-9a-f]{24}$/) as unknown,
      model: 'm1',
      created: expect.any(Number) as unknown,
      message: { role: 'assistant', content: 'Three suppliers.' },
      finishReason: 'stop',
      usage: usage(9, 3),
      toolsCalled: [],
      rounds: 0,
      truncated: false,
    });
    expect(llm.requests).toEqual([
      {
        model: 'm1',
        messages: [USER],
        tools: [search.definition],
        tool_choice: 'auto',
        temperature: 0.2,
        max_tokens: 100,
      },
    ]);
    expect(llm.modes).toEqual(['stream']);
    expect(search.run).not.toHaveBeenCalled();
    // Announced before the model is called: what a stream's frames name from the first one on.
    expect(events).toEqual([{ type: 'start', id: result.id, created: result.created, model: 'm1' }]);
  });

  it("runs a round's server calls concurrently and appends their results in call order", async () => {
    const started: string[] = [];
    const startedWhenFinished: number[] = [];
    let bothStarted!: () => void;
    const gate = new Promise<void>((resolve) => (bothStarted = resolve));
    let bFinished!: () => void;
    const bDone = new Promise<void>((resolve) => (bFinished = resolve));
    const gated = (name: string, after: () => Promise<void>, finished: () => void = () => undefined): Run =>
      jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>(async () => {
        started.push(name);
        if (started.length === 2) bothStarted();
        await gate;
        await after();
        startedWhenFinished.push(started.length);
        finished();
        return { success: true, content: `${name} result` };
      });
    // lookup_a waits for lookup_b, so the results arrive in the reverse of call order.
    const lookupA = serverTool(
      'lookup_a',
      gated('lookup_a', () => bDone),
    );
    const lookupB = serverTool(
      'lookup_b',
      gated('lookup_b', () => Promise.resolve(), bFinished),
    );
    const { llm, events, settings, run } = setup(
      [calling(['lookup_a', '{"id":1}'], ['lookup_b', '{"id":2}']), text('Both found.')],
      toolSet(lookupA, lookupB),
    );

    const result = await run();

    expect(startedWhenFinished).toEqual([2, 2]);
    expect(lookupA.run).toHaveBeenCalledWith({ id: 1 });
    expect(lookupB.run).toHaveBeenCalledWith({ id: 2 });
    expect(eventsOf(events, 'tool_result').map((event) => event.tool_call_id)).toEqual(['call_1', 'call_0']);
    expect(llm.requests[1].messages).toEqual([
      USER,
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'lookup_a', arguments: '{"id":1}' } },
          { id: 'call_1', type: 'function', function: { name: 'lookup_b', arguments: '{"id":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: 'lookup_a result' },
      { role: 'tool', tool_call_id: 'call_1', content: 'lookup_b result' },
    ]);
    expect(result).toMatchObject({
      message: { content: 'Both found.' },
      finishReason: 'stop',
      toolsCalled: ['lookup_a', 'lookup_b'],
      rounds: 1,
      truncated: false,
    });
    expect(settings.messages).toEqual([USER]);
  });

  it('sends a failed tool outcome back to the model as the tool message', async () => {
    const failing = serverTool(
      'search',
      jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>().mockRejectedValue(new Error('socket hang up')),
    );
    const { llm, events, run } = setup([calling(['search', '{}']), text('Sorry.')], toolSet(failing));
    await run();
    expect(llm.requests[1].messages[2]).toEqual({
      role: 'tool',
      tool_call_id: 'call_0',
      content: 'Tool execution failed: internal error',
    });
    expect(eventsOf(events, 'tool_result')).toEqual([
      {
        type: 'tool_result',
        tool_call_id: 'call_0',
        name: 'search',
        result: { success: false, content: 'Tool execution failed: internal error' },
      },
    ]);
  });

  describe('calls the client must run', () => {
    it.each([
      ['a client tool', clientTool('get_location')],
      ['a confirm tool', serverTool('get_location', undefined, { mode: 'confirm', readOnly: false })],
    ])('ends the turn with finish_reason tool_calls for %s', async (_case, tool) => {
      const search = serverTool('search');
      const answer = calling(['get_location', '{}']);
      const { llm, events, run } = setup([answer], toolSet(search, tool));
      const result = await run();
      expect(result).toMatchObject({
        message: answer.message,
        finishReason: 'tool_calls',
        toolsCalled: [],
        rounds: 0,
      });
      expect(events.slice(1)).toEqual([{ type: 'client_tool_calls', tool_calls: answer.message.tool_calls }]);
      expect(llm.requests).toHaveLength(1);
      expect(search.run).not.toHaveBeenCalled();
      if (tool.run) expect(tool.run).not.toHaveBeenCalled();
    });

    it('hands each confirm call over with its parsed arguments to be audited, and no auto call', async () => {
      const handOver = jest.fn<void, [unknown]>();
      const confirm = serverTool('restart', undefined, { mode: 'confirm', readOnly: false, handOver });
      const search = serverTool('search', undefined, { handOver: jest.fn() });
      const answer = calling(['restart', '{"name":"payment-api"}'], ['search', '{"q":"x"}'], ['get_location', '{}']);
      const { run } = setup([answer], toolSet(confirm, search, clientTool('get_location')));
      await expect(run()).resolves.toMatchObject({ finishReason: 'tool_calls' });
      expect(handOver.mock.calls).toEqual([[{ name: 'payment-api' }]]);
      expect(search.handOver).not.toHaveBeenCalled();
      expect(confirm.run).not.toHaveBeenCalled();
      expect(search.run).not.toHaveBeenCalled();
    });

    it('ends the turn on a call of a denied tool, handing it over to be refused and audited, never run', async () => {
      const handOver = jest.fn<void, [unknown]>();
      const denied = serverTool('restart', undefined, { mode: 'denied', readOnly: false, handOver });
      const search = serverTool('search');
      const answer = calling(['search', '{"q":"x"}'], ['restart', '{"name":"payment-api"}']);
      const { llm, events, run } = setup([answer], toolSet(search, denied));
      const result = await run();
      expect(result).toMatchObject({ finishReason: 'tool_calls', toolsCalled: [], rounds: 0 });
      expect(handOver.mock.calls).toEqual([[{ name: 'payment-api' }]]);
      expect(denied.run).not.toHaveBeenCalled();
      expect(search.run).not.toHaveBeenCalled();
      expect(eventsOf(events, 'client_tool_calls')).toEqual([
        { type: 'client_tool_calls', tool_calls: answer.message.tool_calls },
      ]);
      expect(llm.requests).toHaveLength(1);
    });

    it('does not offer a denied tool to the model', async () => {
      const search = serverTool('search');
      const denied = serverTool('restart', undefined, { mode: 'denied' });
      const { llm, run } = setup([text('ok')], toolSet(search, denied));
      await run();
      expect(llm.requests[0].tools).toEqual([search.definition]);
    });

    it('returns every call of the round, server calls included, without running any', async () => {
      const search = serverTool('search');
      const answer = calling(['search', '{"q":"Lyon"}'], ['get_location', '{}']);
      const { events, run } = setup([answer], toolSet(search, clientTool('get_location')));
      const result = await run();
      expect(result.finishReason).toBe('tool_calls');
      expect(result.message.tool_calls).toHaveLength(2);
      expect(eventsOf(events, 'client_tool_calls')[0].tool_calls).toEqual(answer.message.tool_calls);
      expect(search.run).not.toHaveBeenCalled();
    });

    it('hands a call of a tool nobody offers to the client', async () => {
      const search = serverTool('search');
      const { run } = setup([calling(['teleport', '{}'])], toolSet(search));
      await expect(run()).resolves.toMatchObject({ finishReason: 'tool_calls' });
      expect(search.run).not.toHaveBeenCalled();
    });
  });

  describe('tool_choice', () => {
    it('offers no tools for none', async () => {
      const { llm, run } = setup([text('Plain answer.')], toolSet(serverTool('search')), { toolChoice: 'none' });
      await run();
      expect(llm.requests[0]).not.toHaveProperty('tools');
      expect(llm.requests[0]).not.toHaveProperty('tool_choice');
    });

    it('offers no tools when there are none', async () => {
      const { llm, run } = setup([text('Plain answer.')], toolSet(), { toolChoice: 'required' });
      await run();
      expect(llm.requests[0]).toEqual({ model: 'm1', messages: [USER] });
    });

    it.each([
      ['required', 'required' as const],
      ['a named function', { type: 'function' as const, function: { name: 'search' } }],
    ])('turns %s into auto after the first round', async (_case, toolChoice) => {
      const { llm, run } = setup([calling(['search', '{}']), text('Done.')], toolSet(serverTool('search')), {
        toolChoice,
      });
      await run();
      expect(llm.requests.map((request) => request.tool_choice)).toEqual([toolChoice, 'auto']);
    });
  });

  it('stops with a Stopped: message after three identical rounds in a row', async () => {
    const search = serverTool('search');
    const same = (): Answer => calling(['search', '{"q":"x"}']);
    const { llm, events, run } = setup([same(), same(), same(), text('never asked')], toolSet(search), {
      maxRounds: 10,
    });
    const result = await run();
    const expected =
      'Stopped: the model called search with the same arguments 3 times, so the tool loop ended without an answer.';
    expect(result).toMatchObject({
      message: { role: 'assistant', content: expected },
      finishReason: 'stop',
      rounds: 2,
      toolsCalled: ['search', 'search'],
      truncated: false,
    });
    expect(result.message).not.toHaveProperty('tool_calls');
    expect(search.run).toHaveBeenCalledTimes(2);
    expect(llm.requests).toHaveLength(3);
    expect(eventsOf(events, 'content')).toEqual([{ type: 'content', delta: expected }]);
  });

  it('keeps going while the arguments change', async () => {
    const search = serverTool('search');
    const { run } = setup(
      [
        calling(['search', '{"q":"a"}']),
        calling(['search', '{"q":"b"}']),
        calling(['search', '{"q":"a"}']),
        text('ok'),
      ],
      toolSet(search),
    );
    await expect(run()).resolves.toMatchObject({ message: { content: 'ok' }, rounds: 3 });
  });

  it('ends with one call without tools when maxRounds is reached, marked truncated', async () => {
    const search = serverTool('search');
    const { llm, run } = setup(
      [
        calling(['search', '{"q":"1"}']),
        calling(['search', '{"q":"2"}']),
        calling(['search', '{"q":"3"}']),
        text('Summary so far.'),
      ],
      toolSet(search),
      { maxRounds: 2 },
    );
    const result = await run();
    expect(result).toMatchObject({
      message: { content: 'Summary so far.' },
      finishReason: 'stop',
      rounds: 2,
      toolsCalled: ['search', 'search'],
      truncated: true,
    });
    expect(search.run.mock.calls).toEqual([[{ q: '1' }], [{ q: '2' }]]);
    expect(llm.requests).toHaveLength(4);
    const last = llm.requests[3];
    expect(last).not.toHaveProperty('tools');
    expect(last).not.toHaveProperty('tool_choice');
    // The third answer's calls were never run, so they are not in the history.
    expect(last.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it('runs no tool at all with maxRounds 0', async () => {
    const search = serverTool('search');
    const { llm, run } = setup([calling(['search', '{}']), text('No tools then.')], toolSet(search), {
      maxRounds: 0,
    });
    await expect(run()).resolves.toMatchObject({ rounds: 0, truncated: true, message: { content: 'No tools then.' } });
    expect(search.run).not.toHaveBeenCalled();
    expect(llm.requests[1]).toEqual({ model: 'm1', messages: [USER] });
  });

  it('sums usage over every model call of the turn', async () => {
    const { run } = setup(
      [
        { ...calling(['search', '{"q":"1"}']), usage: usage(10, 2) },
        calling(['search', '{"q":"2"}']),
        text('Done.', usage(30, 5)),
      ],
      toolSet(serverTool('search')),
    );
    await expect(run()).resolves.toMatchObject({ usage: usage(40, 7) });
  });

  describe('streaming', () => {
    it('forwards content and tool call deltas and assembles split arguments', async () => {
      const search = serverTool('search');
      const lookup = serverTool('lookup');
      const { llm, events, run } = setup(
        [
          { ...calling(['search', '{"q":"graph rag"}'], ['lookup', '{"id":42}']), usage: usage(10, 4) },
          text('Hello there', usage(20, 2)),
        ],
        toolSet(search, lookup),
        { stream: true, concurrency: 1 },
      );

      const result = await run();

      expect(llm.modes).toEqual(['stream', 'stream']);
      expect(search.run).toHaveBeenCalledWith({ q: 'graph rag' });
      expect(lookup.run).toHaveBeenCalledWith({ id: 42 });
      expect(events.map((event) => event.type)).toEqual([
        'start',
        'tool_call',
        'tool_call',
        'tool_call',
        'tool_call',
        'tool_result',
        'tool_result',
        'content',
        'content',
      ]);
      expect(eventsOf(events, 'tool_call').map((event) => event.delta)).toEqual([
        [{ index: 0, id: 'call_0', type: 'function', function: { name: 'search', arguments: '{"q":"gra' } }],
        [{ index: 0, function: { arguments: 'ph rag"}' } }],
        [{ index: 1, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"id"' } }],
        [{ index: 1, function: { arguments: ':42}' } }],
      ]);
      expect(eventsOf(events, 'content').map((event) => event.delta)).toEqual(['Hello ', 'there']);
      const assembled: ChatToolCall[] = [
        { id: 'call_0', type: 'function', function: { name: 'search', arguments: '{"q":"graph rag"}' } },
        { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"id":42}' } },
      ];
      expect(llm.requests[1].messages[1]).toEqual({ role: 'assistant', content: null, tool_calls: assembled });
      expect(result).toMatchObject({
        message: { role: 'assistant', content: 'Hello there' },
        finishReason: 'stop',
        usage: usage(30, 6),
        toolsCalled: ['search', 'lookup'],
        rounds: 1,
      });
      expect(result.message).not.toHaveProperty('tool_calls');
    });

    it('ends with the streamed client tool calls', async () => {
      const answer = calling(['get_location', '{"precise":true}']);
      const { events, run } = setup([answer], toolSet(clientTool('get_location')), { stream: true });
      const result = await run();
      expect(result.finishReason).toBe('tool_calls');
      expect(result.message.tool_calls).toEqual(answer.message.tool_calls);
      expect(eventsOf(events, 'client_tool_calls')).toEqual([
        { type: 'client_tool_calls', tool_calls: answer.message.tool_calls },
      ]);
    });
  });

  describe('cancellation', () => {
    it('calls nothing when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const { llm, run } = setup([text('unused')], toolSet(serverTool('search')), { signal: controller.signal });
      await abortErrorOf(run());
      expect(llm.requests).toHaveLength(0);
    });

    it('runs no tool when the signal aborts during the model call', async () => {
      const controller = new AbortController();
      const search = serverTool('search');
      const { llm, events, run } = setup([calling(['search', '{}']), text('unused')], toolSet(search), {
        signal: controller.signal,
      });
      llm.onRequest = () => controller.abort();
      await abortErrorOf(run());
      expect(search.run).not.toHaveBeenCalled();
      expect(eventsOf(events, 'tool_result')).toEqual([]);
      expect(llm.requests).toHaveLength(1);
    });

    it('starts no further tool and asks the model nothing more once a tool run is aborted', async () => {
      const controller = new AbortController();
      const first = serverTool(
        'first',
        jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>(() => {
          controller.abort();
          return new Promise<ToolOutcome>(() => undefined);
        }),
      );
      const second = serverTool('second');
      const { llm, run } = setup([calling(['first', '{}'], ['second', '{}']), text('unused')], toolSet(first, second), {
        signal: controller.signal,
        concurrency: 1,
      });
      await abortErrorOf(run());
      expect(first.run).toHaveBeenCalledTimes(1);
      expect(second.run).not.toHaveBeenCalled();
      expect(llm.requests).toHaveLength(1);
    });
  });

  describe('bounds', () => {
    const many = (count: number, name = 'search'): Answer =>
      calling(...Array.from({ length: count }, (_, index): [string, string] => [name, `{"n":${index}}`]));

    it('runs at most CHAT_MAX_TOOL_CALLS of a round, tells the model once, and ends truncated with a text answer', async () => {
      const search = serverTool('search');
      const { llm, settings, run } = setup([many(6), text('From two results.')], toolSet(search), {
        bounds: { ...BOUNDS, toolCallsPerRound: 2 },
      });
      const result = await run();
      expect(search.run).toHaveBeenCalledTimes(2);
      expect(result).toMatchObject({ truncated: true, finishReason: 'stop', toolsCalled: ['search', 'search'] });
      expect(result.notice).toMatch(/4 tool calls were not run/);
      const last = llm.requests[1];
      expect(last.tools).toBeUndefined();
      const toolMessages = last.messages.filter((message) => message.role === 'tool');
      expect(toolMessages).toHaveLength(2);
      expect(toolMessages.filter((message) => String(message.content).includes('were not run'))).toHaveLength(1);
      expect(settings.messages).toEqual([USER]);
    });

    it('stops at CHAT_MAX_TOOL_CALLS_PER_TURN over the rounds; the calls past it get a tool message, not a run', async () => {
      const search = serverTool('search');
      const { llm, run } = setup(
        [many(2), calling(['search', '{"n":7}'], ['search', '{"n":8}']), text('ok')],
        toolSet(search),
        {
          bounds: { ...BOUNDS, toolCallsPerTurn: 3 },
        },
      );
      const result = await run();
      expect(search.run).toHaveBeenCalledTimes(3);
      expect(result.truncated).toBe(true);
      const answers = llm.requests[2].messages
        .filter((message) => message.role === 'tool')
        .map((message) => message.content);
      expect(answers.at(-1)).toMatch(/^Not run\.\n\[1 tool calls were not run/);
    });

    it('charges every server-side call to the account and runs none once the bucket is spent', async () => {
      const search = serverTool('search');
      let left = 1;
      const charge = jest.fn(() => Promise.resolve(left-- > 0));
      const { run } = setup([many(3), text('ok')], toolSet(search), { charge });
      const result = await run();
      expect(charge).toHaveBeenCalledTimes(3);
      expect(search.run).toHaveBeenCalledTimes(1);
      expect(result).toMatchObject({ truncated: true });
      expect(result.notice).toMatch(/rate limit/);
    });

    it('finds repeats per call: a call asked for a third time is not run, its neighbours are', async () => {
      const search = serverTool('search');
      const { run } = setup(
        [
          calling(['search', '{"a":1}']),
          calling(['search', '{"a":1}'], ['search', '{"a":2}']),
          calling(['search', '{ "a": 1 }'], ['search', '{"a":3}']),
          text('done'),
        ],
        toolSet(search),
      );
      const result = await run();
      expect(search.run.mock.calls.map(([args]) => args)).toEqual([{ a: 1 }, { a: 1 }, { a: 2 }, { a: 3 }]);
      expect(result.message.content).toBe('done');
    });

    it('ends with finish_reason length at CHAT_MAX_ANSWER_BYTES, closing the model stream', async () => {
      const { llm, events, run } = setup([text('hello world, and more')], ToolSet.EMPTY, {
        stream: true,
        bounds: { ...BOUNDS, answerBytes: 10 },
      });
      const result = await run();
      expect(result).toMatchObject({ finishReason: 'length', message: { content: 'hello worl' } });
      expect(result.notice).toMatch(/CHAT_MAX_ANSWER_BYTES/);
      expect(
        eventsOf(events, 'content')
          .map((event) => event.delta)
          .join(''),
      ).toBe('hello worl');
      expect(llm.returned).toBe(1);
    });

    it('refuses a tool call index out of bounds with a model_error', async () => {
      const llm = new ScriptedLlm([]);
      llm.stream = async function* () {
        yield await Promise.resolve([{ ...IDENTITY, delta: { tool_calls: [{ index: 1e9 }] }, finish_reason: null }]);
      };
      const loop = new ChatLoop(llm, new ToolExecutor({ timeoutMs: 1000 }, { record: () => undefined }));
      const { settings } = setup([], toolSet(serverTool('search')));
      await expect(loop.run(settings)).rejects.toMatchObject({
        definition: { code: 'agentRetrieval.BadGateway.ModelOutputInvalid' },
      });
    });

    it('reads no more of the model while the client is not ready', async () => {
      let release!: () => void;
      let waits = 0;
      const ready = (): Promise<void> | undefined => {
        waits += 1;
        return waits === 1 ? new Promise<void>((resolve) => (release = resolve)) : undefined;
      };
      const { llm, run } = setup([text('one two three')], ToolSet.EMPTY, { stream: true, ready });
      const finished = run();
      await new Promise((resolve) => setImmediate(resolve));
      expect(llm.pulled).toBe(1);
      release();
      const result = await finished;
      expect(result.message.content).toBe('one two three');
      expect(llm.pulled).toBeGreaterThan(1);
    });
  });
});
