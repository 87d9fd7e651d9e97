import { ProtocolError } from '@modelcontextprotocol/server';
import { testConfig } from '../../test/support/unit/config';
import { LongJob, McpTasks } from './mcp-tasks';

/** A job that runs until the test finishes it, and remembers the signal it was given. */
function heldJob() {
  let finish!: (value: Record<string, unknown>) => void;
  let fail!: (error: unknown) => void;
  let signal!: AbortSignal;
  let report!: Parameters<LongJob<Record<string, unknown>>['run']>[1];
  const job: LongJob<Record<string, unknown>> = {
    run: (given, progress) => {
      signal = given;
      report = progress;
      return new Promise((resolve, reject) => ((finish = resolve), (fail = reject)));
    },
  };
  return {
    job,
    finish: (v: Record<string, unknown>) => finish(v),
    fail: (e: unknown) => fail(e),
    signal: () => signal,
    report: () => report,
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function tasks(env: Record<string, string> = {}) {
  return new McpTasks(testConfig({ MCP_TASK_THRESHOLD_MS: '0', ...env }).mcp);
}

describe('McpTasks', () => {
  it('answers a job that ends within the threshold with its result, and a later one with a task', async () => {
    const quick = tasks({ MCP_TASK_THRESHOLD_MS: '60000' });
    expect(await quick.start('user:a', { run: async () => ({ content: [] }) })).toEqual({ result: { content: [] } });
    const held = heldJob();
    const started = await tasks().start('user:a', held.job);
    expect(started).toMatchObject({ task: { status: 'working', ttlMs: 3600000, pollIntervalMs: 1000 } });
  });

  it('makes a task at once when the client asked for one or the job runs long, whatever the threshold', async () => {
    const registry = tasks({ MCP_TASK_THRESHOLD_MS: '600000' });
    const started = await registry.start('user:a', heldJob().job, true);
    expect(started).toMatchObject({ task: { status: 'working' } });
    expect(registry.list('user:a').map((task) => task.status)).toEqual(['working']);
    expect(registry.list('user:b')).toEqual([]);
  });

  it('shows progress while working and the result once completed', async () => {
    const registry = tasks();
    const held = heldJob();
    const { task } = (await registry.start('user:a', held.job)) as { task: { taskId: string } };
    held.report()({ done: 3, total: 10, message: 'indexing object types' });
    expect(registry.get('user:a', task.taskId)).toMatchObject({
      status: 'working',
      statusMessage: '3 of 10: indexing object types',
    });
    held.finish({ content: [{ type: 'text', text: 'done' }] });
    expect(await registry.settled('user:a', task.taskId)).toMatchObject({ status: 'completed' });
    expect(registry.get('user:a', task.taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'done' }] },
    });
  });

  it('reports a job that threw as failed with a JSON-RPC error, never its message', async () => {
    const registry = tasks();
    const held = heldJob();
    const { task } = (await registry.start('user:a', held.job)) as { task: { taskId: string } };
    held.fail(new Error('secret path /etc/x'));
    await flush();
    expect(registry.get('user:a', task.taskId)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'Internal error' },
    });
  });

  it('cancels by aborting the job; its later result does not change the task', async () => {
    const registry = tasks();
    const held = heldJob();
    const { task } = (await registry.start('user:a', held.job)) as { task: { taskId: string } };
    registry.cancel('user:a', task.taskId);
    expect(held.signal().aborted).toBe(true);
    held.finish({ content: [] });
    await flush();
    expect(registry.get('user:a', task.taskId)).toMatchObject({ status: 'cancelled' });
    expect(registry.get('user:a', task.taskId).result).toBeUndefined();
  });

  it('keeps each account’s tasks to itself', async () => {
    const registry = tasks();
    const held = heldJob();
    const { task } = (await registry.start('user:a', held.job)) as { task: { taskId: string } };
    expect(() => registry.get('user:b', task.taskId)).toThrow(ProtocolError);
    expect(() => registry.cancel('user:b', task.taskId)).toThrow('Failed to retrieve task: Task not found');
    expect(held.signal().aborted).toBe(false);
    expect(() => registry.get('user:a', 'no-such-task')).toThrow('Task not found');
    expect(() => registry.get('user:a', 42)).toThrow('Task not found');
  });

  it('lets an account at its task limit wait for the result instead of holding another task', async () => {
    const registry = tasks({ MCP_TASKS_PER_ACCOUNT: '1' });
    await registry.start('user:a', heldJob().job);
    expect(await registry.start('user:a', { run: async () => ({ content: [] }) })).toEqual({ result: { content: [] } });
    expect(await registry.start('user:b', heldJob().job)).toHaveProperty('task');
  });

  it('forgets a task after its TTL and cancels its job if it still runs', async () => {
    const registry = tasks({ MCP_TASK_TTL_MS: '1000' });
    const held = heldJob();
    const now = jest.spyOn(Date, 'now');
    try {
      now.mockReturnValue(1_000_000);
      const { task } = (await registry.start('user:a', held.job)) as { task: { taskId: string } };
      now.mockReturnValue(1_000_999);
      expect(registry.get('user:a', task.taskId).status).toBe('working');
      now.mockReturnValue(1_001_001);
      expect(() => registry.get('user:a', task.taskId)).toThrow('Task not found');
      expect(held.signal().aborted).toBe(true);
    } finally {
      now.mockRestore();
    }
  });

  it('cancels every running job when the application stops', async () => {
    const registry = tasks();
    const held = heldJob();
    await registry.start('user:a', held.job);
    registry.onModuleDestroy();
    expect(held.signal().aborted).toBe(true);
  });
});
