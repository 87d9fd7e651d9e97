import { Logger } from '@nestjs/common';
import { CallMetrics } from '../metrics/metrics.service';
import { ChatToolCall } from './chat.types';
import { CallerScope, ExecutorOptions, parseArguments, redactedArguments, ToolExecutor } from './tool-executor';
import { ChatTool, ToolOutcome } from './tools/tool-registry';
import { realErrorPresenter } from '../../test/support/unit/i18n';
import { AppException } from '../common/errors/app.exception';
import { workspaceError, WorkspaceErrors } from './workspace/workspace.errors';

const CALLER: CallerScope = { accountId: 'alice', sessionId: 'sess_1' };
const FOUND: ToolOutcome = { success: true, content: '3 suppliers in Lyon' };

type Run = (args: Record<string, unknown>) => Promise<ToolOutcome>;

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
  const executor = new ToolExecutor({ timeoutMs: 1000, cacheTtlSeconds: 0, ...options }, { record });
  return { executor, record };
}

const live = (): AbortSignal => new AbortController().signal;
const never = (): Promise<ToolOutcome> => new Promise<ToolOutcome>(() => undefined);

describe('parseArguments', () => {
  it.each(['', '   ', '\n'])('reads empty text %j as {}', (text) => {
    expect(parseArguments(text)).toEqual({ ok: true, value: {} });
  });

  it('reads a JSON object', () => {
    expect(parseArguments('{"q":"Lyon","limit":3}')).toEqual({ ok: true, value: { q: 'Lyon', limit: 3 } });
  });

  it.each(['{"q":', "{'q': 1}", 'undefined'])('refuses invalid JSON %j', (text) => {
    expect(parseArguments(text)).toEqual({ ok: false, message: 'arguments are not valid JSON' });
  });

  it.each(['[1,2]', '"text"', '42', 'null', 'true'])('refuses JSON %s that is not an object', (text) => {
    expect(parseArguments(text)).toEqual({ ok: false, message: 'arguments must be a JSON object' });
  });
});

describe('redactedArguments', () => {
  it('keeps words that merely contain a secret word, and an object used twice', () => {
    const shared = { city: 'Lyon' };
    expect(JSON.parse(redactedArguments({ max_tokens: 5, passage: 'p', bypass: 'b', x: shared, y: shared }))).toEqual({
      max_tokens: 5,
      passage: 'p',
      bypass: 'b',
      x: shared,
      y: shared,
    });
  });

  it.each(['password', 'PASS', 'db_passwd', 'api_key', 'apiKey', 'api-key', 'Authorization', 'authorisation', 'token'])(
    'masks the value of %s',
    (key) => {
      const text = redactedArguments({ [key]: 'hunter2', q: 'Lyon' });
      expect(JSON.parse(text)).toEqual({ [key]: '[redacted]', q: 'Lyon' });
    },
  );

  it('masks secret keys at any depth, including inside arrays and whole objects under a secret key', () => {
    const args = {
      q: 'Lyon',
      connection: { headers: [{ Authorization: 'Bearer abc' }], nested: { client_secret: 's3' } },
      credentials: { user: 'bob', pin: 1234 },
    };
    const text = redactedArguments(args);
    expect(JSON.parse(text)).toEqual({
      q: 'Lyon',
      connection: { headers: [{ Authorization: '[redacted]' }], nested: { client_secret: '[redacted]' } },
      credentials: '[redacted]',
    });
    expect(text).not.toMatch(/abc|s3|1234/);
  });

  it('cuts strings longer than 200 characters', () => {
    const text = redactedArguments({ q: 'a'.repeat(200), body: 'b'.repeat(300) });
    expect(JSON.parse(text)).toEqual({ q: 'a'.repeat(200), body: `${'b'.repeat(200)}…` });
  });

  it('bounds the whole text to 500 characters plus an ellipsis', () => {
    const args = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`field_${index}`, 'x'.repeat(100)]));
    const text = redactedArguments(args);
    expect(text).toHaveLength(501);
    expect(text.endsWith('…')).toBe(true);
    expect(text.startsWith('{"field_0":"xxx')).toBe(true);
  });

  it('marks a cycle instead of throwing', () => {
    const args: Record<string, unknown> = { q: 'Lyon' };
    args.self = args;
    args.list = [args];
    expect(JSON.parse(redactedArguments(args))).toEqual({ q: 'Lyon', self: '[cycle]', list: ['[cycle]'] });
  });

  it('logs only the length of arguments that are not JSON (they cannot be masked key by key)', () => {
    expect(redactedArguments('{"password":"hunter2", "q":')).toBe('[unparsable arguments, 27 characters]');
    expect(redactedArguments(undefined)).toBe('');
  });
});

describe('ToolExecutor', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('a tool that throws undefined is a failed call, not a crash of the turn', async () => {
    const { executor } = setup();
    await expect(
      executor.execute(
        chatTool(() => Promise.reject(undefined)),
        toolCall(),
        CALLER,
        live(),
      ),
    ).resolves.toEqual({ success: false, content: 'Tool execution failed: internal error' });
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
        CALLER,
        controller.signal,
      );
    expect(removed).toHaveBeenCalledTimes(added.mock.calls.length);
  });

  it('runs the tool with the parsed arguments and returns its outcome', async () => {
    const { executor, record } = setup();
    const run = jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>().mockResolvedValue(FOUND);
    await expect(executor.execute(chatTool(run), toolCall(), CALLER, live())).resolves.toEqual(FOUND);
    expect(run).toHaveBeenCalledWith({ q: 'Lyon' });
    expect(record).toHaveBeenCalledTimes(1);
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'ok' }, expect.any(Number));
    expect(record.mock.calls[0][1]).toBeGreaterThanOrEqual(0);
  });

  it('hands back a failed outcome from the tool as an error', async () => {
    const { executor, record } = setup();
    const outcome = { success: false, content: 'no such kn' };
    await expect(
      executor.execute(
        chatTool(() => Promise.resolve(outcome)),
        toolCall(),
        CALLER,
        live(),
      ),
    ).resolves.toEqual(outcome);
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'error' }, expect.any(Number));
  });

  it('labels MCP tools with an mcp: prefix', async () => {
    const { executor, record } = setup();
    await executor.execute(
      chatTool(() => Promise.resolve(FOUND), { kind: 'mcp' }),
      toolCall(),
      CALLER,
      live(),
    );
    expect(record).toHaveBeenCalledWith({ tool: 'mcp:search', outcome: 'ok' }, expect.any(Number));
  });

  it('answers invalid arguments without running the tool', async () => {
    const { executor, record } = setup();
    const run = jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>().mockResolvedValue(FOUND);
    await expect(executor.execute(chatTool(run), toolCall('[1]'), CALLER, live())).resolves.toEqual({
      success: false,
      content: 'Invalid arguments for search: arguments must be a JSON object',
    });
    expect(run).not.toHaveBeenCalled();
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'error' }, expect.any(Number));
  });

  it('hides the message of a plain Error behind "internal error"', async () => {
    const { executor, record } = setup();
    const failing = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    const outcome = await executor.execute(chatTool(failing), toolCall(), CALLER, live());
    expect(outcome).toEqual({ success: false, content: 'Tool execution failed: internal error' });
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'error' }, expect.any(Number));
  });

  it('hides a synchronous throw the same way', async () => {
    const { executor } = setup();
    const throwing: Run = () => {
      throw new TypeError('x is undefined');
    };
    await expect(executor.execute(chatTool(throwing), toolCall(), CALLER, live())).resolves.toEqual({
      success: false,
      content: 'Tool execution failed: internal error',
    });
  });

  it('passes on the message of an error with a definition', async () => {
    const { executor } = setup();
    const known = Object.assign(new Error('knowledge network kn-9 not found'), {
      definition: { code: 'KN_NOT_FOUND' },
    });
    await expect(
      executor.execute(
        chatTool(() => Promise.reject(known)),
        toolCall(),
        CALLER,
        live(),
      ),
    ).resolves.toEqual({ success: false, content: 'Tool execution failed: knowledge network kn-9 not found' });
  });

  it('words a workspace refusal with the given explanation: its details in the caller’s language', async () => {
    const presenter = await realErrorPresenter();
    const executor = new ToolExecutor({ timeoutMs: 1000, cacheTtlSeconds: 0 }, { record: jest.fn() }, (error) =>
      presenter.detailsText(error as AppException, 'en-US'),
    );
    const refused = () =>
      Promise.reject(workspaceError(WorkspaceErrors.PathNotFound, 'fileNotFound', { path: '"notes.txt"' }));
    await expect(executor.execute(chatTool(refused), toolCall(), CALLER, live())).resolves.toEqual({
      success: false,
      content: 'Tool execution failed: file "notes.txt" not found',
    });
  });

  it('gives up on a tool that does not finish within timeoutMs', async () => {
    const { executor, record } = setup({ timeoutMs: 20 });
    await expect(executor.execute(chatTool(never), toolCall(), CALLER, live())).resolves.toEqual({
      success: false,
      content: 'Tool search did not finish within 20 ms',
    });
    expect(record).toHaveBeenCalledWith({ tool: 'search', outcome: 'error' }, expect.any(Number));
  });

  it('answers cancelled when the signal is already aborted', async () => {
    const { executor } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(executor.execute(chatTool(never), toolCall(), CALLER, controller.signal)).resolves.toEqual({
      success: false,
      content: 'cancelled',
    });
  });

  it('answers cancelled when the signal aborts while the tool runs', async () => {
    const { executor } = setup();
    const controller = new AbortController();
    const run = jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>(() => {
      controller.abort();
      return never();
    });
    await expect(executor.execute(chatTool(run), toolCall(), CALLER, controller.signal)).resolves.toEqual({
      success: false,
      content: 'cancelled',
    });
    expect(run).toHaveBeenCalledTimes(1);
  });

  describe('result cache', () => {
    const counting = (outcome: ToolOutcome = FOUND) =>
      jest.fn<Promise<ToolOutcome>, [Record<string, unknown>]>().mockResolvedValue(outcome);

    it('runs a read-only tool once for two identical calls and records both', async () => {
      const { executor, record } = setup({ cacheTtlSeconds: 60 });
      const run = counting();
      const first = await executor.execute(chatTool(run), toolCall(), CALLER, live());
      const second = await executor.execute(chatTool(run), toolCall(), CALLER, live());
      expect(run).toHaveBeenCalledTimes(1);
      expect(second).toEqual(first);
      expect(second).toEqual(FOUND);
      expect(record.mock.calls.map(([labels]) => labels)).toEqual([
        { tool: 'search', outcome: 'ok' },
        { tool: 'search', outcome: 'ok' },
      ]);
    });

    it('keys the cache by caller, tool and argument text', async () => {
      const { executor } = setup({ cacheTtlSeconds: 60 });
      const run = counting();
      await executor.execute(chatTool(run), toolCall(), CALLER, live());
      await executor.execute(chatTool(run), toolCall('{"q":"Paris"}'), CALLER, live());
      await executor.execute(chatTool(run), toolCall(), { ...CALLER, sessionId: 'sess_2' }, live());
      await executor.execute(chatTool(run), toolCall(), { ...CALLER, accountId: 'bob' }, live());
      await executor.execute(chatTool(run, { name: 'lookup' }), toolCall(), CALLER, live());
      expect(run).toHaveBeenCalledTimes(5);
    });

    it('does not cache a tool that is not read-only', async () => {
      const { executor } = setup({ cacheTtlSeconds: 60 });
      const run = counting();
      await executor.execute(chatTool(run, { readOnly: false }), toolCall(), CALLER, live());
      await executor.execute(chatTool(run, { readOnly: false }), toolCall(), CALLER, live());
      expect(run).toHaveBeenCalledTimes(2);
    });

    it('does not cache a failed outcome', async () => {
      const { executor } = setup({ cacheTtlSeconds: 60 });
      const run = counting({ success: false, content: 'upstream busy' });
      await executor.execute(chatTool(run), toolCall(), CALLER, live());
      await executor.execute(chatTool(run), toolCall(), CALLER, live());
      expect(run).toHaveBeenCalledTimes(2);
    });

    it('does not cache a thrown error', async () => {
      const { executor } = setup({ cacheTtlSeconds: 60 });
      const run = jest
        .fn<Promise<ToolOutcome>, [Record<string, unknown>]>()
        .mockRejectedValueOnce(new Error('flaky'))
        .mockResolvedValue(FOUND);
      await expect(executor.execute(chatTool(run), toolCall(), CALLER, live())).resolves.toMatchObject({
        success: false,
      });
      await expect(executor.execute(chatTool(run), toolCall(), CALLER, live())).resolves.toEqual(FOUND);
      expect(run).toHaveBeenCalledTimes(2);
    });

    it('does not cache when cacheTtlSeconds is 0', async () => {
      const { executor } = setup({ cacheTtlSeconds: 0 });
      const run = counting();
      await executor.execute(chatTool(run), toolCall(), CALLER, live());
      await executor.execute(chatTool(run), toolCall(), CALLER, live());
      expect(run).toHaveBeenCalledTimes(2);
    });
  });

  it('writes one audit line with redacted arguments and the outcome', async () => {
    const log = jest.spyOn(Logger.prototype, 'log');
    try {
      const { executor } = setup();
      await executor.execute(
        chatTool(() => Promise.resolve(FOUND)),
        toolCall('{"q":"Lyon","api_key":"sk-live-123"}'),
        CALLER,
        live(),
      );
      expect(log).toHaveBeenCalledTimes(1);
      const [line, message] = log.mock.calls[0] as [Record<string, unknown>, string];
      expect(message).toBe('chat tool call');
      expect(line).toMatchObject({
        account_id: 'alice',
        session_id: 'sess_1',
        tool: 'search',
        kind: 'server',
        arguments: '{"q":"Lyon","api_key":"[redacted]"}',
        outcome: 'ok',
        result_bytes: Buffer.byteLength(FOUND.content),
      });
      expect(JSON.stringify(line)).not.toContain('sk-live-123');
    } finally {
      log.mockRestore();
    }
  });
});
