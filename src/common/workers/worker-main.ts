import { Logger, LoggerService } from '@nestjs/common';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { ReplyMessage, serializeError, TaskMessage, WorkerBoot } from './worker-protocol';

/**
 * The entry of a pool worker thread. Each service is a module exporting `createWorkerService()`,
 * loaded on its first task; a task calls one of the service object's methods and its result (or
 * error) goes back to the request thread. Nest `Logger` output is forwarded there, into the app's log.
 */
type Service = Record<string, (...args: unknown[]) => unknown>;

const port = parentPort!;
const boot = workerData as WorkerBoot;
const services = new Map<string, Service>();

const post = (message: ReplyMessage): void => port.postMessage(message);

const forward =
  (level: Extract<ReplyMessage, { kind: 'log' }>['level']) =>
  (message: unknown, context?: unknown): void =>
    post({ kind: 'log', level, message: String(message), context: typeof context === 'string' ? context : undefined });

const forwardingLogger: LoggerService = {
  log: forward('log'),
  warn: forward('warn'),
  error: forward('error'),
  debug: forward('debug'),
  verbose: forward('verbose'),
};
Logger.overrideLogger(forwardingLogger);

function service(name: string): Service {
  let loaded = services.get(name);
  if (!loaded) {
    const file = boot.services[name];
    if (!file) throw new Error(`unknown worker service "${name}"`);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(file) as { createWorkerService(): Service };
    loaded = module.createWorkerService();
    services.set(name, loaded);
  }
  return loaded;
}

/** A method of the service's class or one it extends: never `constructor`, nor what every object inherits. */
function isMethod(target: Service, name: string): boolean {
  if (name === 'constructor') return false;
  for (let proto = Object.getPrototypeOf(target) as object | null; proto && proto !== Object.prototype;) {
    if (Object.prototype.hasOwnProperty.call(proto, name)) return true;
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return false;
}

async function handle(task: TaskMessage): Promise<void> {
  const started = performance.now();
  try {
    const target = service(task.service);
    const method = isMethod(target, task.method) ? target[task.method] : undefined;
    if (typeof method !== 'function') throw new Error(`worker service "${task.service}" has no "${task.method}"`);
    const value = await method.apply(target, task.args);
    post({ kind: 'result', id: task.id, value, threadId, ms: performance.now() - started });
  } catch (error) {
    post({ kind: 'error', id: task.id, error: serializeError(error), threadId, ms: performance.now() - started });
  }
}

/**
 * Tasks run one at a time, in the order posted: the pool posts the next one while this one runs (see
 * POSTED_PER_WORKER), and an async method must not let it start early.
 */
let running: Promise<void> = Promise.resolve();
port.on('message', (task: TaskMessage) => {
  running = running.then(() => handle(task));
});
