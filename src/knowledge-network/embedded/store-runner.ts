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
  /** Starts answering queries for a network `build` returned. */
  serve(built: BuiltNetwork, root: string, folder: string): Promise<void>;
  discard(built: BuiltNetwork): void;
  call<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<StoreResult<M>>;
  close(): void;
}

const SERVICE = 'kn';

/**
 * Networks on the worker pool: one worker builds a network and returns a snapshot of its database,
 * every worker opens its own copy, and each query runs on whichever worker is free. A worker that
 * replaces a dead one rebuilds the networks from their folders before it takes queries.
 */
export class PooledStoreRunner implements StoreRunner {
  constructor(
    private readonly pool: WorkerPool,
    options: NetworkStoresOptions,
  ) {
    pool.register(SERVICE, __dirname, 'network-stores');
    pool.onStart(SERVICE, 'configure', [options]);
  }

  get threads(): number {
    return this.pool.size;
  }

  build(root: string, folder: string): Promise<BuiltNetwork> {
    return this.pool.setup(SERVICE, 'build', [root, folder, true]);
  }

  async serve(built: BuiltNetwork, root: string, folder: string): Promise<void> {
    this.pool.onStart(SERVICE, 'rebuild', [root, folder]);
    await this.pool.broadcast(SERVICE, 'open', [built.snapshot]);
    built.snapshot = undefined;
  }

  discard(built: BuiltNetwork): void {
    built.snapshot = undefined;
  }

  call<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<StoreResult<M>> {
    return this.pool.run(SERVICE, 'call', [knId, method, args]);
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
