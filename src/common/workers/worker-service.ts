/** The public methods of `T` (the calls a worker service answers). */
export type MethodName<T> = {
  [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T] &
  string;

/** `T`'s methods as they are called across threads: same arguments, the result always a promise. */
export type Remote<T> = {
  readonly [K in MethodName<T>]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/** `T`'s methods run on every worker: the caller learns only that all have finished. */
export type RemoteEverywhere<T> = {
  readonly [K in MethodName<T>]: T[K] extends (...args: infer A) => unknown ? (...args: A) => Promise<void> : never;
};

/** `T`'s methods recorded for later (a start-up task): nothing to wait for. */
export type Recorded<T> = {
  readonly [K in MethodName<T>]: T[K] extends (...args: infer A) => unknown ? (...args: A) => void : never;
};

/**
 * A service the worker threads can run: a compiled module in `dir` exporting `createWorkerService()`,
 * which returns a `T`. Declared once beside the implementation; the type travels with it, so callers
 * name methods as properties and the compiler checks them and their arguments.
 */
export interface WorkerServiceDefinition<T> {
  readonly name: string;
  readonly dir: string;
  readonly module: string;
  /** Never set: carries `T` to `WorkerPool.service`. */
  readonly type?: T;
}

export function workerService<T>(name: string, dir: string, module: string): WorkerServiceDefinition<T> {
  return { name, dir, module };
}

/** The ways one service's methods are run on the pool, each a typed proxy of its methods. */
export interface RemoteService<T> {
  /** Request work on the next free worker: refused with 503 (Retry-After) when the pool is saturated. */
  readonly call: Remote<T>;
  /** Start-up work on the next free worker, never refused (the service is not yet taking requests). */
  readonly setup: Remote<T>;
  /** Runs on every worker (each after the tasks it already holds); resolves when all have. */
  readonly everyWorker: RemoteEverywhere<T>;
  /**
   * A call every worker started from now on (a replacement for one that died) makes before taking
   * work. A `key` names it: recording the same key again replaces the earlier call.
   */
  onStart(key?: string): Recorded<T>;
  /** Drops the start-up call recorded under `key` (what it set up is gone). */
  forgetStart(key: string): void;
}

/**
 * An object whose every property is a function calling `invoke` with the property's name. `then` is
 * absent, so a proxy passed through `await` or returned from an async function is not taken for a promise.
 */
export function methodProxy<P extends object>(invoke: (method: string, args: unknown[]) => unknown): P {
  return new Proxy(Object.create(null) as object, {
    get: (_target, property) =>
      typeof property === 'string' && property !== 'then' ? (...args: unknown[]) => invoke(property, args) : undefined,
  }) as P;
}
