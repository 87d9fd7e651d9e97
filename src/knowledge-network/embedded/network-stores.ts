import { KnSchema } from '../knowledge-network.types';
import { EmbeddingClient, EmbeddingSettings } from './embedding-client';
import { NetworkLoader } from './network-loader';
import { snapshotOf, NetworkSnapshot, openSnapshot } from './network-snapshot';
import { IndexedNetwork, NetworkStore } from './network-store';
import { indexNetwork } from './network-store-builder';

/** The NetworkStore methods a request may run. */
const STORE_METHODS = [
  'searchConcepts',
  'queryInstances',
  'querySubgraph',
  'queryActions',
  'resolveLogicProperties',
] as const;
export type StoreMethod = (typeof STORE_METHODS)[number];
const ALLOWED: ReadonlySet<string> = new Set(STORE_METHODS);
export type StoreArgs<M extends StoreMethod> = Parameters<NetworkStore[M]>;
export type StoreResult<M extends StoreMethod> = Awaited<ReturnType<NetworkStore[M]>>;

export interface NetworkStoresOptions {
  embedding?: EmbeddingSettings;
  queryCacheSize: number;
}

/** What the request thread learns about a network one thread has indexed. */
export interface BuiltNetwork {
  id: string;
  schema: KnSchema;
  instanceCount: number;
  hybridSearch: boolean;
  embeddingError?: string;
  warnings: string[];
  /** Data files lacking declared columns (see LoadedNetwork). */
  missingColumns: string[];
  buildMs: number;
  /** Present when asked for: the database and metadata other threads open with `open`. */
  snapshot?: NetworkSnapshot;
}

/**
 * The networks one thread serves. On a worker thread (the default) the pool builds each network on
 * one worker, which hands back a snapshot that every worker `open`s; with SEARCH_WORKERS=0 the request
 * thread builds and serves them itself. Every query goes through `call`.
 */
export class NetworkStores {
  private readonly stores = new Map<string, NetworkStore>();
  /** Built on this thread, not yet served (the request thread still checks the id is unique). */
  private readonly pending = new Map<string, IndexedNetwork>();
  private options: NetworkStoresOptions = { queryCacheSize: 0 };
  private embeddings?: EmbeddingClient;

  configure(options: NetworkStoresOptions): void {
    this.options = options;
    this.embeddings = options.embedding ? new EmbeddingClient(options.embedding) : undefined;
  }

  /** Parses and indexes one network folder; keeps it pending here, or returns its snapshot instead. */
  async build(root: string, folder: string, snapshot: boolean): Promise<BuiltNetwork> {
    const started = Date.now();
    const loaded = new NetworkLoader(root).load(folder);
    const network = await indexNetwork(loaded, {
      embeddings: this.embeddings,
      queryCacheSize: this.options.queryCacheSize,
    });
    const built: BuiltNetwork = {
      id: network.schema.id,
      schema: network.schema,
      instanceCount: network.instanceCount,
      hybridSearch: network.vectors !== undefined,
      embeddingError: network.embeddingError,
      warnings: loaded.warnings,
      missingColumns: loaded.missingColumns,
      buildMs: 0,
    };
    if (snapshot) {
      built.snapshot = snapshotOf(network);
      network.index.close();
    } else {
      this.discard(built.id);
      this.pending.set(built.id, network);
    }
    built.buildMs = Date.now() - started;
    return built;
  }

  /** Serves a network this thread built and kept pending. */
  serve(id: string): void {
    const network = this.pending.get(id);
    if (!network) throw new Error(`network "${id}" was not built on this thread`);
    this.pending.delete(id);
    this.replace(id, new NetworkStore(network));
  }

  discard(id: string): void {
    this.pending.get(id)?.index.close();
    this.pending.delete(id);
  }

  /** Serves a network from another thread's snapshot. */
  open(snapshot: NetworkSnapshot): void {
    const network = openSnapshot(snapshot, {
      embeddings: this.embeddings,
      queryCacheSize: this.options.queryCacheSize,
    });
    this.replace(snapshot.schema.id, new NetworkStore(network));
  }

  /** Builds and serves a folder in one step: how a replacement worker catches up. */
  async rebuild(root: string, folder: string): Promise<void> {
    const built = await this.build(root, folder, false);
    this.serve(built.id);
  }

  /** Runs a query on a served network; the caller has checked that `knId` is one. */
  call<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<StoreResult<M>> {
    const store = this.stores.get(knId);
    if (!store || !ALLOWED.has(method)) throw new Error(`no network "${knId}" or method "${method}" here`);
    const run = store[method] as (...values: StoreArgs<M>) => StoreResult<M> | Promise<StoreResult<M>>;
    return Promise.resolve(run.apply(store, args));
  }

  /** `call` with the result as JSON text: a string crosses to the request thread far cheaper than an object graph. */
  async callJson<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<string> {
    return JSON.stringify(await this.call(knId, method, args));
  }

  close(): void {
    for (const store of this.stores.values()) store.close();
    for (const id of [...this.pending.keys()]) this.discard(id);
    this.stores.clear();
  }

  private replace(id: string, store: NetworkStore): void {
    this.stores.get(id)?.close();
    this.stores.set(id, store);
  }
}

/** The worker-thread entry point (see common/workers/worker-main). */
export function createWorkerService(): NetworkStores {
  return new NetworkStores();
}
