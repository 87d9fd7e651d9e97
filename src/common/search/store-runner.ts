import { LRUCache } from 'lru-cache';
import { WorkerPool } from '../workers/worker-pool';
import { methodProxy, Remote, RemoteService, WorkerServiceDefinition } from '../workers/worker-service';
import { BuiltStore, ThreadStores } from './thread-stores';

/**
 * Where the stores of one kind (knowledge networks, knowledge bases) are built and queried: on the
 * search worker pool, or on this thread (SEARCH_WORKERS=0). Both features drive their stores through
 * this one interface.
 */
export interface StoreRunner<Q, Built> {
  readonly threads: number;
  /** Threads free to take a query now (see WorkerPool.idle); 0 where queries run on this thread. */
  readonly idleThreads: number;
  /** Finds or builds the store of `folder` (under `root`) on one thread. */
  build(root: string, folder: string): Promise<Built>;
  /**
   * Starts answering queries for a store `build` returned, in place of the one served under its id
   * (queries running on that one finish on it).
   */
  serve(built: Built, root: string, folder: string): Promise<void>;
  discard(built: Built): void;
  /** Stops serving a store whose folder is gone. */
  unserve(id: string, folder: string): Promise<void>;
  /**
   * The queries of a served store, run where it lives. `cacheable`: the answer depends only on the
   * arguments (the store is immutable and keyword-only), so a repeat may be answered from a cache.
   */
  queries(id: string, cacheable: boolean): Remote<Q>;
  close(): void;
}

type CallJson = (id: string, method: string, args: unknown[]) => Promise<string>;

/** Bytes of JSON the request thread keeps for repeated queries, whatever the configured entry count allows. */
const RESULT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Stores on the worker pool: one worker opens or builds a store (an index file, or in memory with a
 * snapshot of it), every worker opens it, and each query runs on whichever worker is free. A worker
 * that replaces a dead one rebuilds the served stores from their folders before it takes queries.
 */
export class PooledStoreRunner<
  Q extends object,
  Options,
  Built extends BuiltStore<Snapshot>,
  Snapshot,
> implements StoreRunner<Q, Built> {
  /**
   * Answers as JSON text by call: a repeated query (agents repeat themselves) is answered on this
   * thread by one JSON.parse, without queueing for a worker. The workers keep their own row caches.
   */
  private readonly results?: LRUCache<string, string>;
  /** Times each store was served: part of the cache key, so a reloaded store never answers from the old one. */
  private readonly generations = new Map<string, number>();
  private readonly stores: RemoteService<ThreadStores<Q, Options, Built, Snapshot>>;

  constructor(
    private readonly pool: WorkerPool,
    definition: WorkerServiceDefinition<ThreadStores<Q, Options, Built, Snapshot>>,
    options: Options,
    queryCacheSize: number,
  ) {
    this.stores = pool.service(definition);
    this.stores.onStart().configure(options);
    if (queryCacheSize > 0) {
      this.results = new LRUCache({
        max: queryCacheSize,
        maxSize: RESULT_CACHE_BYTES,
        sizeCalculation: (json, key) => 2 * (json.length + key.length),
      });
    }
  }

  get threads(): number {
    return this.pool.size;
  }

  get idleThreads(): number {
    return this.pool.idle;
  }

  build(root: string, folder: string): Promise<Built> {
    return this.stores.setup.build(root, folder, true);
  }

  async serve(built: Built, root: string, folder: string): Promise<void> {
    this.stores.onStart(folder).rebuild(root, folder);
    await this.stores.everyWorker.open(built.snapshot!);
    built.snapshot = undefined;
    this.generations.set(built.id, (this.generations.get(built.id) ?? 0) + 1);
  }

  discard(built: Built): void {
    built.snapshot = undefined;
  }

  async unserve(id: string, folder: string): Promise<void> {
    this.stores.forgetStart(folder);
    await this.stores.everyWorker.unserve(id);
    this.generations.set(id, (this.generations.get(id) ?? 0) + 1);
  }

  queries(id: string, cacheable: boolean): Remote<Q> {
    return methodProxy((method, args) => this.call(id, method, args, cacheable));
  }

  close(): void {
    // The pool belongs to WorkersModule, which stops it at shutdown.
  }

  /**
   * Not an async function: a kn_search makes one call per object type, and on Node 20 every promise pays
   * the request context's hooks; a cached answer costs the one promise returned, a fresh one a `then`.
   */
  private call(id: string, method: string, args: unknown[], cacheable: boolean): Promise<unknown> {
    try {
      const generation = this.generations.get(id) ?? 0;
      const key =
        cacheable && this.results ? `${id}\u0000${generation}\u0000${method}\u0000${JSON.stringify(args)}` : undefined;
      const cached = key === undefined ? undefined : this.results!.get(key);
      if (cached !== undefined) return Promise.resolve(JSON.parse(cached) as unknown);
      return (this.stores.call.callJson as CallJson)(id, method, args).then((json) => {
        if (key !== undefined) this.results!.set(key, json);
        return JSON.parse(json) as unknown;
      });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** SEARCH_WORKERS=0: the request thread builds and queries the stores itself, as a single-threaded service. */
export class InlineStoreRunner<
  Q extends object,
  Options,
  Built extends BuiltStore<Snapshot>,
  Snapshot,
> implements StoreRunner<Q, Built> {
  readonly threads = 0;
  readonly idleThreads = 0;

  constructor(
    private readonly stores: ThreadStores<Q, Options, Built, Snapshot>,
    options: Options,
  ) {
    this.stores.configure(options);
  }

  build(root: string, folder: string): Promise<Built> {
    return this.stores.build(root, folder, false);
  }

  serve(built: Built): Promise<void> {
    this.stores.serve(built.id);
    return Promise.resolve();
  }

  discard(built: Built): void {
    this.stores.discard(built.id);
  }

  unserve(id: string): Promise<void> {
    this.stores.unserve(id);
    return Promise.resolve();
  }

  queries(id: string): Remote<Q> {
    const call = this.stores.call.bind(this.stores) as (
      id: string,
      method: string,
      args: unknown[],
    ) => Promise<unknown>;
    return methodProxy((method, args) => call(id, method, args));
  }

  close(): void {
    this.stores.close();
  }
}
