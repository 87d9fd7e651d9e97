import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import type { ProgressReporter } from '../capabilities/capability';
import { configToken, McpConfig } from '../config';

/**
 * A job that may outlive the request that started it: it honours `signal` (cancellation) and reports
 * how far it is. Any tool call is one; a network reload is another (`McpTasks.start` takes either).
 */
export interface LongJob<T> {
  run(signal: AbortSignal, progress: ProgressReporter): Promise<T>;
}

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** A task as `tasks/get` shows it (tasks extension, 2026-07-28): status, progress message, result or error. */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

interface TaskRecord {
  view: TaskView;
  owner: string;
  expiresAt: number;
  abort: AbortController;
  /** Resolves once the task is completed, failed or cancelled. */
  settled: Promise<void>;
  markSettled(): void;
}

/** What starting a job gave: its result (it finished in time, or could not become a task) or its task. */
export type JobStart<T> = { result: T } | { task: TaskView };

/** Suggested polling interval; a task's progress moves in steps of about this. */
const POLL_INTERVAL_MS = 1000;

/**
 * Long jobs as MCP tasks: a job still running after MCP_TASK_THRESHOLD_MS (0: any job) is answered with a task the
 * client polls (`tasks/get`, with the job's progress) or cancels (`tasks/cancel` aborts the job). Tasks
 * are kept in this process, per account (another account's task id is unknown to it), at most
 * MCP_TASKS_PER_ACCOUNT each, and forgotten MCP_TASK_TTL_MS after creation (a job still running then
 * is cancelled).
 */
@Injectable()
export class McpTasks implements OnModuleDestroy {
  private readonly tasks = new Map<string, TaskRecord>();

  constructor(@Inject(configToken('mcp')) private readonly config: McpConfig) {}

  onModuleDestroy(): void {
    for (const record of this.tasks.values()) {
      record.abort.abort();
      this.settle(record, { status: 'cancelled', statusMessage: 'The server stopped' });
    }
    this.tasks.clear();
  }

  /**
   * Runs a job for `owner`; answers with its result when it ends within the threshold (unless `asked`:
   * the client asked for a task), else with a task that keeps running. An account at its task limit
   * waits for the result instead.
   */
  async start<T extends Record<string, unknown>>(owner: string, job: LongJob<T>, asked = false): Promise<JobStart<T>> {
    this.sweep();
    if (this.countOwnedBy(owner) >= this.config.tasks.perAccount) {
      return { result: await job.run(new AbortController().signal, () => undefined) };
    }
    const abort = new AbortController();
    const now = new Date().toISOString();
    let markSettled!: () => void;
    const settled = new Promise<void>((resolve) => (markSettled = resolve));
    const record: TaskRecord = {
      owner,
      abort,
      settled,
      markSettled,
      expiresAt: Date.now() + this.config.tasks.ttlMs,
      view: {
        taskId: randomUUID(),
        status: 'working',
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: this.config.tasks.ttlMs,
        pollIntervalMs: POLL_INTERVAL_MS,
      },
    };
    const running = job.run(abort.signal, (progress) => this.progress(record, progress));
    const outcome = asked ? { done: false as const } : await this.withinThreshold(running);
    if (outcome.done) return { result: outcome.value };
    this.tasks.set(record.view.taskId, record);
    running.then(
      (result) => this.settle(record, { status: 'completed', result }),
      (error: unknown) => this.settle(record, { status: 'failed', error: protocolErrorOf(error) }),
    );
    return { task: { ...record.view } };
  }

  /** `tasks/get`: the caller's own task, or -32602 as if it did not exist. */
  get(owner: string, taskId: unknown): TaskView {
    return { ...this.owned(owner, taskId).view };
  }

  /** The caller's own task once it is completed, failed or cancelled (2025-11-25 `tasks/result`). */
  async settled(owner: string, taskId: unknown): Promise<TaskView> {
    const record = this.owned(owner, taskId);
    await record.settled;
    return { ...record.view };
  }

  /** The caller's tasks, newest first (at most MCP_TASKS_PER_ACCOUNT). */
  list(owner: string): TaskView[] {
    this.sweep();
    return [...this.tasks.values()]
      .filter((record) => record.owner === owner)
      .map((record) => ({ ...record.view }))
      .reverse();
  }

  /** `tasks/cancel`: aborts the job; the task reads `cancelled` from then on. */
  cancel(owner: string, taskId: unknown): void {
    const record = this.owned(owner, taskId);
    if (record.view.status !== 'working') return;
    record.abort.abort();
    this.settle(record, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
  }

  private owned(owner: string, taskId: unknown): TaskRecord {
    this.sweep();
    const record = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!record || record.owner !== owner) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
    }
    return record;
  }

  /** The job's result if it ends within the threshold; 0 makes every job a task (no race to lose). */
  private async withinThreshold<T>(running: Promise<T>): Promise<{ done: true; value: T } | { done: false }> {
    if (this.config.tasks.thresholdMs === 0) return { done: false };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ done: false }>((resolve) => {
      timer = setTimeout(() => resolve({ done: false }), this.config.tasks.thresholdMs);
    });
    try {
      return await Promise.race([running.then((value) => ({ done: true as const, value })), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private progress(record: TaskRecord, progress: Parameters<ProgressReporter>[0]): void {
    if (record.view.status !== 'working') return;
    const done = Number.isFinite(progress.done) ? progress.done : 0;
    const total = progress.total !== undefined && Number.isFinite(progress.total) ? ` of ${progress.total}` : '';
    record.view.statusMessage = `${done}${total}${progress.message ? `: ${progress.message.slice(0, 200)}` : ''}`;
    record.view.lastUpdatedAt = new Date().toISOString();
  }

  private settle(record: TaskRecord, change: Partial<TaskView> & { status: TaskStatus }): void {
    if (record.view.status !== 'working') return;
    Object.assign(record.view, change, { lastUpdatedAt: new Date().toISOString() });
    record.markSettled();
  }

  private countOwnedBy(owner: string): number {
    let count = 0;
    for (const record of this.tasks.values()) if (record.owner === owner) count += 1;
    return count;
  }

  /** Forgets expired tasks, cancelling a job that still runs. */
  private sweep(): void {
    const now = Date.now();
    for (const [id, record] of this.tasks) {
      if (record.expiresAt > now) continue;
      record.abort.abort();
      this.settle(record, {
        status: 'failed',
        error: { code: ProtocolErrorCode.InternalError, message: 'Task expired' },
      });
      this.tasks.delete(id);
    }
  }
}

function protocolErrorOf(error: unknown): { code: number; message: string } {
  if (error instanceof ProtocolError) return { code: error.code, message: error.message };
  return { code: ProtocolErrorCode.InternalError, message: 'Internal error' };
}
