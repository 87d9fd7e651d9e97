import { LRUCache } from 'lru-cache';
import { WorkerPool } from '../../common/workers/worker-pool';
import {
  BuiltNetwork,
  NetworkStores,
  NetworkStoresOptions,
  StoreArgs,
  StoreMethod,
  StoreResult,
} from './network-stores';

/** Where the embedded networks are built and queried: on the search worker pool, or on this thread. */
export interface StoreRunner {
  readonly threads: number;
  build(root: string, folder: string): Promise<BuiltNetwork>;
  /**
   * Starts answering queries for a network `build` returned, in place of the one served under its id
   * (queries running on that one finish on it).
   */
  serve(built: BuiltNetwork, root: string, folder: string): Promise<void>;
  discard(built: BuiltNetwork): void;
  /** `cacheable`: the answer depends only on the arguments (the network is immutable and keyword-only). */
  call<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>, cacheable: boolean): Promise<StoreResult<M>>;
  close(): void;
}

/** Bytes of JSON the request thread keeps for repeated queries, whatever KN_QUERY_CACHE_SIZE allows. */
const RESULT_CACHE_BYTES = 64 * 1024 * 1024;

const SERVICE = 'kn';

/**
 * Networks on the worker pool: one worker opens or builds a network's index file (or, without an
 * INDEX_DIR, builds it in memory and returns a snapshot of it), every worker opens it, and each
 * query runs on whichever worker is free. A worker that
 * replaces a dead one rebuilds the networks from their folders before it takes queries.
 */
export class PooledStoreRunner implements StoreRunner {
  /**
   * Answers as JSON text by call: a repeated query (agents repeat themselves) is answered on this
   * thread by one JSON.parse, without queueing for a worker. The workers keep their own row caches.
   */
  private readonly results?: LRUCache<string, string>;
  /** Times each network was served: part of the cache key, so a reloaded network never answers from the old one. */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly pool: WorkerPool,
    options: NetworkStoresOptions,
  ) {
    pool.register(SERVICE, __dirname, 'network-stores');
    pool.onStart(SERVICE, 'configure', [options]);
    if (options.queryCacheSize > 0) {
      this.results = new LRUCache({
        max: options.queryCacheSize,
        maxSize: RESULT_CACHE_BYTES,
        sizeCalculation: (json, key) => 2 * (json.length + key.length),
      });
    }
  }

  get threads(): number {
    return this.pool.size;
  }

  build(root: string, folder: string): Promise<BuiltNetwork> {
    return this.pool.setup(SERVICE, 'build', [root, folder, true]);
  }

  async serve(built: BuiltNetwork, root: string, folder: string): Promise<void> {
    this.pool.onStart(SERVICE, 'rebuild', [root, folder], folder);
    await this.pool.broadcast(SERVICE, 'open', [built.snapshot]);
    built.snapshot = undefined;
    this.generations.set(built.id, (this.generations.get(built.id) ?? 0) + 1);
  }

  discard(built: BuiltNetwork): void {
    built.snapshot = undefined;
  }

  /**
   * Not an async function: a kn_search makes one call per object type, and on Node 20 every promise pays
   * the request context's hooks; a cached answer costs the one promise returned, a fresh one a `then`.
   */
  call<M extends StoreMethod>(
    knId: string,
    method: M,
    args: StoreArgs<M>,
    cacheable: boolean,
  ): Promise<StoreResult<M>> {
    try {
      const generation = this.generations.get(knId) ?? 0;
      const key =
        cacheable && this.results
          ? `${knId}\u0000${generation}\u0000${method}\u0000${JSON.stringify(args)}`
          : undefined;
      const cached = key === undefined ? undefined : this.results!.get(key);
      if (cached !== undefined) return Promise.resolve(JSON.parse(cached) as StoreResult<M>);
      return this.pool.run<string>(SERVICE, 'callJson', [knId, method, args]).then((json) => {
        if (key !== undefined) this.results!.set(key, json);
        return JSON.parse(json) as StoreResult<M>;
      });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  close(): void {
    // The pool belongs to WorkersModule, which stops it at shutdown.
  }
}

/** SEARCH_WORKERS=0: the request thread builds and queries the networks itself, as a single-threaded service. */
export class InlineStoreRunner implements StoreRunner {
  private readonly stores = new NetworkStores();
  readonly threads = 0;

  constructor(options: NetworkStoresOptions) {
    this.stores.configure(options);
  }

  build(root: string, folder: string): Promise<BuiltNetwork> {
    return this.stores.build(root, folder, false);
  }

  serve(built: BuiltNetwork): Promise<void> {
    this.stores.serve(built.id);
    return Promise.resolve();
  }

  discard(built: BuiltNetwork): void {
    this.stores.discard(built.id);
  }

  call<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<StoreResult<M>> {
    return this.stores.call(knId, method, args);
  }

  close(): void {
    this.stores.close();
  }
}
