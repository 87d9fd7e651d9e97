import { z } from 'zod';
import { isRecord } from '../common/http/json-inspection';
import { McpRequestHandlers, TASKS_EXTENSION } from './mcp-nest.extension';
import { McpTasks, TaskView } from './mcp-tasks';

/** The `_meta` key that ties a 2025-11-25 task's result to its task. */
const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

const TASK_PARAMS = z.looseObject({ taskId: z.string().max(100) });
const LIST_PARAMS = z.looseObject({ cursor: z.string().max(100).optional() });

/** Whether a 2026-07-28 request declared the tasks extension in its per-request client capabilities. */
export function declaresTasks(context: { mcpReq: { envelope?: Record<string, unknown> } } | undefined): boolean {
  const capabilities = context?.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'];
  return (
    isRecord(capabilities) && isRecord(capabilities.extensions) && isRecord(capabilities.extensions[TASKS_EXTENSION])
  );
}

/** The tasks extension (2026-07-28): `tasks/get` and `tasks/cancel`, on the caller's (`owner`) own tasks only. */
export function installTaskMethods(handlers: McpRequestHandlers, tasks: McpTasks, owner: string): void {
  handlers.setRequestHandler('tasks/get', { params: TASK_PARAMS }, ({ taskId }) => ({
    resultType: 'complete',
    ...tasks.get(owner, taskId),
  }));
  handlers.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, ({ taskId }) => {
    tasks.cancel(owner, taskId);
    return { resultType: 'complete' };
  });
}

/**
 * Tasks as the 2025-11-25 revision has them (a client asks with `params.task` on tools/call): `tasks/get`,
 * `tasks/result` (waits for the end), `tasks/list` and `tasks/cancel`, on the caller's own tasks only.
 */
export function installLegacyTaskMethods(handlers: McpRequestHandlers, tasks: McpTasks, owner: string): void {
  handlers.setRequestHandler('tasks/get', { params: TASK_PARAMS }, ({ taskId }) =>
    legacyTask(tasks.get(owner, taskId)),
  );
  handlers.setRequestHandler('tasks/list', { params: LIST_PARAMS }, () => ({
    tasks: tasks.list(owner).map(legacyTask),
  }));
  handlers.setRequestHandler('tasks/cancel', { params: TASK_PARAMS }, ({ taskId }) => {
    tasks.cancel(owner, taskId);
    return legacyTask(tasks.get(owner, taskId));
  });
  handlers.setRequestHandler('tasks/result', { params: TASK_PARAMS }, async ({ taskId }) => {
    const task = await tasks.settled(owner, taskId);
    const related = { [RELATED_TASK_META]: { taskId: task.taskId } };
    if (task.status === 'completed' && task.result) {
      return { ...task.result, _meta: { ...(task.result._meta as object | undefined), ...related } };
    }
    const message = task.status === 'cancelled' ? 'Task was cancelled' : (task.error?.message ?? 'Task failed');
    return { content: [{ type: 'text' as const, text: message }], isError: true, _meta: related };
  });
}

/**
 * A created task, as a 2025-11-25 client reads the answer to its task-augmented tools/call. The SDK
 * server only lets a tools/call answer carry `task` next to a `content` array, so an empty one goes along.
 */
export function legacyCreateTaskResult(task: TaskView) {
  return { content: [], task: legacyTask(task) };
}

function legacyTask(task: TaskView) {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = task;
  return { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl: ttlMs, pollInterval: pollIntervalMs };
}
