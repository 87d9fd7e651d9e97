import { LRUCache } from 'lru-cache';
import { WorkerPool } from '../../common/workers/worker-pool';
import { RemoteService } from '../../common/workers/worker-service';
import {
  BuiltNetwork,
  NETWORK_STORES,
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
  private readonly stores: RemoteService<NetworkStores>;

  constructor(
    private readonly pool: WorkerPool,
    options: NetworkStoresOptions,
  ) {
    this.stores = pool.service(NETWORK_STORES);
    this.stores.onStart().configure(options);
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
    return this.stores.setup.build(root, folder, true);
  }

  async serve(built: BuiltNetwork, root: string, folder: string): Promise<void> {
    this.stores.onStart(folder).rebuild(root, folder);
    await this.stores.everyWorker.open(built.snapshot!);
    built.snapshot = undefined;
    this.generations.set(built.id, (this.generations.get(built.id) ?? 0) + 1);
  }

  discard(built: BuiltNetwork): void {
    built.snapshot = undefined;
  }

  async call<M extends StoreMethod>(
    knId: string,
    method: M,
    args: StoreArgs<M>,
    cacheable: boolean,
  ): Promise<StoreResult<M>> {
    const generation = this.generations.get(knId) ?? 0;
    const key =
      cacheable && this.results ? `${knId}\u0000${generation}\u0000${method}\u0000${JSON.stringify(args)}` : undefined;
    let json = key === undefined ? undefined : this.results!.get(key);
    if (json === undefined) {
      json = await this.stores.call.callJson(knId, method, args);
      if (key !== undefined) this.results!.set(key, json);
    }
    return JSON.parse(json) as StoreResult<M>;
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
