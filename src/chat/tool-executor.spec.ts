import { Logger } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { CallMetrics } from '../metrics/metrics.service';
import { ChatToolCall } from './chat.types';
import { argumentsOf, ExecutorOptions, ToolExecutor } from './tool-executor';
import { ChatTool, ToolOutcome } from './tools/tool-registry';

const FOUND: ToolOutcome = { success: true, content: '3 suppliers in Lyon' };
const INTERNAL: ToolOutcome = { success: false, content: 'Tool execution failed: internal error' };

type Run = (args: unknown) => Promise<ToolOutcome>;

function chatTool(run: Run, overrides: Partial<ChatTool> = {}): ChatTool {
  return {
    name: 'search',
    definition: { type: 'function', function: { name: 'search' } },
    kind: 'server',
    mode: 'auto',
    readOnly: true,
    run,
    ...overrides,
  };
}

function toolCall(args = '{"q":"Lyon"}', name = 'search'): ChatToolCall {
  return { id: 'call_1', type: 'function', function: { name, arguments: args } };
}

function setup(options: Partial<ExecutorOptions> = {}) {
  const record = jest.fn<void, Parameters<CallMetrics['record']>>();
  const executor = new ToolExecutor({ timeoutMs: 1000, ...options }, { record });
  return { executor, record };
}

const live = (): AbortSignal => new AbortController().signal;
const never = (): Promise<ToolOutcome> => new Promise<ToolOutcome>(() => undefined);

describe('argumentsOf', () => {
  it.each(['', '   ', '\n'])('reads empty text %j as {}', (text) => {
    expect(argumentsOf(text)).toEqual({});
  });

  it('reads a JSON object', () => {
    expect(argumentsOf('{"q":"Lyon","limit":3}')).toEqual({ q: 'Lyon', limit: 3 });
  });

  it.each([
    ['[1,2]', [1, 2]],
    ['"text"', 'text'],
    ['42', 42],
    ['null', null],
    ['true', true],
  ])('reads JSON %s that is not an object as its value (the gateway refuses it as a type error)', (text, value) => {
    expect(argumentsOf(text)).toEqual(value);
  });

  it.each(['{"q":', "{'q': 1}", 'undefined'])(
    'keeps text %j that is not JSON as text (refused as not JSON)',
    (text) => {
      expect(argumentsOf(text)).toBe(text);
    },
  );
});

describe('ToolExecutor', () => {
  let logged: jest.SpyInstance;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error');
  });
  afterEach(() => jest.restoreAllMocks());

  it('runs the tool with the parsed arguments, returns its outcome and records the call', async () => {
    const { executor, record } = setup();
    const run = jest.fn<Promise<ToolOutcome>, [unknown]>().mockResolvedValue(FOUND);
    await expect(executor.execute(chatTool(run), toolCall(), live())).resolves.toEqual(FOUND);
    expect(run).toHaveBeenCalledWith({ q: 'Lyon' });
    expect(record).toHaveBeenCalledTimes(1);
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'ok' }, expect.any(Number));
    expect(record.mock.calls[0][1]).toBeGreaterThanOrEqual(0);
  });

  it('hands arguments that are not JSON to the tool as text, so the gateway refuses and audits them', async () => {
    const { executor } = setup();
    const run = jest.fn<Promise<ToolOutcome>, [unknown]>().mockResolvedValue(FOUND);
    await executor.execute(chatTool(run), toolCall('{"q":'), live());
    await executor.execute(chatTool(run), toolCall(''), live());
    expect(run.mock.calls).toEqual([['{"q":'], [{}]]);
  });

  it('hands back a failed outcome from the tool and records it as an error', async () => {
    const { executor, record } = setup();
    const outcome = { success: false, content: '{"code":"agentRetrieval.Forbidden.ToolDenied"}' };
    await expect(
      executor.execute(
        chatTool(() => Promise.resolve(outcome)),
        toolCall(),
        live(),
      ),
    ).resolves.toEqual(outcome);
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'error' }, expect.any(Number));
  });

  it('labels operator tools with an mcp: prefix', async () => {
    const { executor, record } = setup();
    const name = 'k8s_tools__get_pods';
    await executor.execute(
      chatTool(() => Promise.resolve(FOUND), { kind: 'operator', name }),
      toolCall('{}', name),
      live(),
    );
    expect(record).toHaveBeenCalledWith({ tool: 'mcp:k8s_tools__get_pods', outcome: 'ok' }, expect.any(Number));
  });

  it('labels workspace tools by their own name', async () => {
    const { executor, record } = setup();
    await executor.execute(
      chatTool(() => Promise.resolve(FOUND), { kind: 'workspace', name: 'read_file' }),
      toolCall('{}', 'read_file'),
      live(),
    );
    expect(record).toHaveBeenCalledWith({ tool: 'read_file', outcome: 'ok' }, expect.any(Number));
  });

  describe('a tool that throws (a bug: the gateway answers every expected failure as an outcome)', () => {
    it.each([
      ['a plain Error', () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432'))],
      ['undefined', () => Promise.reject(undefined)],
      ['an AppException', () => Promise.reject(new AppException(ValidationErrors.Required, 'query is required'))],
      [
        'synchronously',
        () => {
          throw new TypeError('x is undefined');
        },
      ],
    ])('is a failed call answered as internal error, not a crash of the turn: %s', async (_case, run: Run) => {
      const { executor, record } = setup();
      await expect(executor.execute(chatTool(run), toolCall(), live())).resolves.toEqual(INTERNAL);
      expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'error' }, expect.any(Number));
    });

    it('is logged with its stack, which the model never sees', async () => {
      const { executor } = setup();
      const outcome = await executor.execute(
        chatTool(() => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432'))),
        toolCall(),
        live(),
      );
      expect(outcome.content).not.toContain('10.0.0.7');
      expect(logged).toHaveBeenCalledTimes(1);
      expect(String(logged.mock.calls[0][0])).toMatch(
        /^tool search failed: Error: connect ECONNREFUSED 10\.0\.0\.7:5432\n/,
      );
    });
  });

  it('gives up on a tool that does not finish within timeoutMs', async () => {
    const { executor, record } = setup({ timeoutMs: 20 });
    await expect(executor.execute(chatTool(never), toolCall(), live())).resolves.toEqual({
      success: false,
      content: 'Tool search did not finish within 20 ms',
    });
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'error' }, expect.any(Number));
  });

  it('answers cancelled when the signal is already aborted', async () => {
    const { executor } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(executor.execute(chatTool(never), toolCall(), controller.signal)).resolves.toEqual({
      success: false,
      content: 'cancelled',
    });
  });

  it('answers cancelled when the signal aborts while the tool runs', async () => {
    const { executor } = setup();
    const controller = new AbortController();
    const run = jest.fn<Promise<ToolOutcome>, [unknown]>(() => {
      controller.abort();
      return never();
    });
    await expect(executor.execute(chatTool(run), toolCall(), controller.signal)).resolves.toEqual({
      success: false,
      content: 'cancelled',
    });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('leaves no abort listener behind on the turn signal, however many calls it runs', async () => {
    const { executor } = setup();
    const controller = new AbortController();
    const added = jest.spyOn(controller.signal, 'addEventListener');
    const removed = jest.spyOn(controller.signal, 'removeEventListener');
    for (let i = 0; i < 20; i += 1)
      await executor.execute(
        chatTool(() => Promise.resolve(FOUND)),
        toolCall(),
        controller.signal,
      );
    expect(added).toHaveBeenCalledTimes(20);
    expect(removed).toHaveBeenCalledTimes(20);
  });
});
