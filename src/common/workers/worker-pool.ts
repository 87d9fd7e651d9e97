import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { currentRequestContext, RequestContext } from '../context/request-context';
import { AppException } from '../errors/app.exception';
import { compiledModule } from './compiled-module';
import { reviveError, ReplyMessage, TaskMessage, WorkerBoot } from './worker-protocol';
import { WorkerErrors } from './workers.errors';
import { methodProxy, RemoteService, WorkerServiceDefinition } from './worker-service';

export interface WorkerPoolOptions {
  /** Worker threads; they start on the first task. */
  size: number;
  /** Tasks that may wait for a free worker; one more is refused. */
  queueMax: number;
  /** A task whose expected wait (queue ahead × mean task time ÷ workers) exceeds this is refused. */
  maxWaitMs: number;
}

/** What the pool reports, for metrics; every hook is optional. */
export interface WorkerPoolObserver {
  queued?(depth: number): void;
  rejected?(reason: 'queue_full' | 'wait_too_long'): void;
  finished?(service: string, method: string, seconds: number, threadId: number, ok: boolean): void;
}

interface Task extends TaskMessage {
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Start-up work (index build): not admitted against the queue and not counted in the mean task time. */
  setup: boolean;
}

interface Slot {
  worker: Worker;
  /**
   * Tasks posted to this worker, in the order it runs them: the one it is running and, while it runs
   * queries, the next few (see dispatch).
   */
  posted: Task[];
  /**
   * Tasks this worker must run next, before any other still waiting here (its share of a broadcast,
   * start-up replays); after those it already holds.
   */
  own: Task[];
}

const INITIAL_TASK_MS = 10;
const SMOOTHING = 0.2;
/**
 * Tasks a worker holds at once: the one it runs and the next two, so it goes on to the next as soon as
 * it finishes instead of waiting for the request thread (busy with HTTP work under load) to read its
 * answer and post another. Under cold kn_search load at 50 connections on two cores, one task at a time
 * left both cores a fifth idle; two, three and four held gave about +13, +25 and +27 % answers a second.
 * More would only commit tasks to one worker that another may free up for sooner.
 */
const POSTED_PER_WORKER = 3;

const stopped = (): AppException => new AppException(WorkerErrors.Stopped, 'the service is shutting down');

/**
 * A fixed set of worker threads with a bounded queue in front of them. CPU-heavy work posted here
 * runs off the request thread, so health probes and metrics never wait behind it. When the queue is
 * full, or the wait it implies is longer than `maxWaitMs`, a request's first task fails at once with
 * 503 and `Retry-After` instead of letting latency grow; its later tasks are admitted. A worker that
 * dies is replaced and replays the start-up tasks registered with `onStart`.
 */
export class WorkerPool {
  private readonly logger = new Logger('WorkerPool');
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  /**
   * Later tasks of admitted requests: handed to a worker before any new request's first task still
   * waiting here, so started work finishes.
   */
  private readonly continuing: Task[] = [];
  private readonly services: Record<string, string> = {};
  private readonly startTasks: { service: string; method: string; args: unknown[]; key?: string }[] = [];
  /** Requests that already had a task admitted: their further tasks queue without a second check. */
  private readonly admitted = new WeakSet<RequestContext>();
  private nextId = 1;
  private meanTaskMs = INITIAL_TASK_MS;
  private closed = false;

  constructor(
    readonly options: WorkerPoolOptions,
    private readonly observer: WorkerPoolObserver = {},
  ) {}

  /**
   * The typed door to a worker service: registers it (once; again with the same definition is the same
   * service) and returns proxies whose methods run on the workers. Register before the first task.
   */
  service<T>(definition: WorkerServiceDefinition<T>): RemoteService<T> {
    const file = compiledModule(definition.dir, definition.module);
    const known = this.services[definition.name];
    if (known !== undefined && known !== file)
      throw new Error(`worker service "${definition.name}" is already registered from ${known}`);
    if (known === undefined) {
      if (this.slots.length > 0) throw new Error('register worker services before the first task');
      this.services[definition.name] = file;
    }
    const name = definition.name;
    return {
      call: methodProxy((method, args) => this.submit(name, method, args, false)),
      setup: methodProxy((method, args) => this.submit(name, method, args, true)),
      everyWorker: methodProxy((method, args) => this.broadcast(name, method, args)),
      onStart: (key?: string) => methodProxy((method, args) => this.onStart(name, method, args, key)),
      forgetStart: (key: string) => this.forgetStart(name, key),
    };
  }

  get size(): number {
    return this.options.size;
  }

  /**
   * Workers running nothing and holding nothing, while no task waits here: how many parts a request may
   * split its work into now without delaying anyone's.
   */
  get idle(): number {
    if (this.queue.length + this.continuing.length > 0) return 0;
    return this.slots.filter((slot) => slot.posted.length === 0 && slot.own.length === 0).length;
  }

  /** Tasks waiting for a worker: queued here, or posted to one behind the task it runs. */
  get depth(): number {
    let waiting = this.queue.length + this.continuing.length;
    for (const slot of this.slots) waiting += Math.max(0, slot.posted.length - 1);
    return waiting;
  }

  /** Runs the method on every worker (each after the tasks it already holds); resolves when all have. */
  private async broadcast(service: string, method: string, args: unknown[]): Promise<void> {
    this.start();
    await Promise.all(this.slots.map((slot) => this.own(slot, service, method, args)));
  }

  /** A task every worker started from now on runs before taking work; the same key again replaces it. */
  private onStart(service: string, method: string, args: unknown[], key?: string): void {
    const existing =
      key === undefined ? -1 : this.startTasks.findIndex((task) => task.service === service && task.key === key);
    if (existing >= 0) this.startTasks[existing] = { service, method, args, key };
    else this.startTasks.push({ service, method, args, key });
  }

  private forgetStart(service: string, key: string): void {
    const at = this.startTasks.findIndex((task) => task.service === service && task.key === key);
    if (at >= 0) this.startTasks.splice(at, 1);
  }

  /** Stops every worker; whatever was queued or running fails with 503. */
  async close(): Promise<void> {
    this.closed = true;
    const slots = this.slots.splice(0);
    const pending = [...this.continuing.splice(0), ...this.queue.splice(0)];
    for (const slot of slots) pending.push(...slot.own.splice(0), ...slot.posted.splice(0));
    for (const task of pending) task.reject(stopped());
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private submit(service: string, method: string, args: unknown[], setup: boolean): Promise<unknown> {
    if (this.closed) return Promise.reject(stopped());
    this.start();
    // Admission is per request where the request context travels ambiently (see request-context): one that
    // has started is allowed to finish its fan-out (a kn_search's concept search, then its instance batch),
    // ahead of new requests, rather than be refused halfway. Elsewhere each task is admitted on its own.
    const request = setup ? undefined : currentRequestContext();
    const continuing = request !== undefined && this.admitted.has(request);
    if (!setup && !continuing) {
      const refusal = this.admission();
      if (refusal) return Promise.reject(refusal);
      if (request) this.admitted.add(request);
    }
    return new Promise<unknown>((resolve, reject) => {
      const task = this.task(service, method, args, setup, resolve, reject);
      (continuing ? this.continuing : this.queue).push(task);
      this.dispatch();
    });
  }

  private task(
    service: string,
    method: string,
    args: unknown[],
    setup: boolean,
    resolve: (value: unknown) => void,
    reject: (error: Error) => void,
  ): Task {
    return { id: this.nextId++, service, method, args, resolve, reject, setup };
  }

  /** Why a new task is refused now, or undefined when it may wait. */
  private admission(): AppException | undefined {
    const busy = this.slots.filter((slot) => slot.posted.length > 0 || slot.own.length > 0).length;
    const depth = this.depth;
    if (busy < this.slots.length && depth === 0) return undefined;
    const waitMs = ((depth + 1) * this.meanTaskMs) / this.slots.length;
    const reason =
      depth >= this.options.queueMax ? 'queue_full' : waitMs > this.options.maxWaitMs ? 'wait_too_long' : '';
    if (!reason) return undefined;
    this.observer.rejected?.(reason);
    const retryAfter = Math.max(1, Math.ceil(Math.max(waitMs, this.meanTaskMs) / 1000));
    return new AppException(
      WorkerErrors.Overloaded,
      `search is at capacity (${depth} queued for ${this.slots.length} workers); retry after ${retryAfter} s`,
      { headers: { 'Retry-After': String(retryAfter) } },
    );
  }

  private start(): void {
    if (this.slots.length > 0 || this.closed) return;
    for (let i = 0; i < this.options.size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const boot: WorkerBoot = { services: this.services };
    const worker = new Worker(compiledModule(__dirname, 'worker-main'), { workerData: boot });
    // The HTTP server decides how long the process lives; a worker never keeps it alive on its own
    // (e.g. after a start-up that failed before the app could close the pool).
    worker.unref();
    const slot: Slot = { worker, posted: [], own: [] };
    worker.on('message', (message: ReplyMessage) => this.receive(slot, message));
    worker.on('error', (error) => this.logger.error(`worker thread failed: ${error.message}`));
    worker.on('exit', (code) => this.replace(slot, code));
    // Before any other work a worker runs the start-up tasks registered so far: the first workers
    // configure their services; a replacement also rebuilds what the others were given since.
    for (const task of this.startTasks) void this.own(slot, task.service, task.method, task.args).catch(() => {});
    return slot;
  }

  private own(slot: Slot, service: string, method: string, args: unknown[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      slot.own.push(this.task(service, method, args, true, () => resolve(), reject));
      this.dispatch();
    });
  }

  /**
   * Gives every idle worker a task, then each busy one its next (see POSTED_PER_WORKER), a round at a time
   * so the tasks spread; never behind start-up work, which may take seconds while another worker is free.
   */
  private dispatch(): void {
    for (let held = 0; held < POSTED_PER_WORKER; held += 1) {
      for (const slot of this.slots) {
        if (slot.posted.length !== held || (held > 0 && slot.posted[held - 1].setup)) continue;
        const task = slot.own.shift() ?? this.continuing.shift() ?? this.queue.shift();
        if (!task) continue;
        slot.posted.push(task);
        const message: TaskMessage = { id: task.id, service: task.service, method: task.method, args: task.args };
        slot.worker.postMessage(message);
      }
    }
    this.observer.queued?.(this.depth);
  }

  private receive(slot: Slot, message: ReplyMessage): void {
    if (message.kind === 'log') {
      // The static logger, so the worker's own context names the line (an instance's context would win).
      Logger[message.level](message.message, message.context ?? 'worker');
      return;
    }
    const at = slot.posted.findIndex((task) => task.id === message.id);
    if (at < 0) return;
    const [task] = slot.posted.splice(at, 1);
    if (!task.setup) this.meanTaskMs += SMOOTHING * (message.ms - this.meanTaskMs);
    this.observer.finished?.(task.service, task.method, message.ms / 1000, message.threadId, message.kind === 'result');
    if (message.kind === 'result') task.resolve(message.value);
    else task.reject(reviveError(message.error));
    this.dispatch();
  }

  /** A worker that exits while the pool is open is replaced; its tasks fail with 503 (they may be retried). */
  private replace(slot: Slot, code: number): void {
    const position = this.slots.indexOf(slot);
    if (position < 0 || this.closed) return;
    this.logger.error(`worker thread exited with code ${code}; starting a replacement`);
    const lost = new AppException(WorkerErrors.WorkerLost, 'the worker running this request stopped; retry', {
      headers: { 'Retry-After': '1' },
    });
    for (const task of [...slot.posted, ...slot.own]) task.reject(lost);
    this.slots[position] = this.spawn();
    this.dispatch();
  }
}
