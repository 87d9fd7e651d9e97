import { workerService } from '../../common/workers/worker-service';
import { KnSchema } from '../knowledge-network.types';
import { EmbeddingClient, EmbeddingSettings } from './embedding-client';
import { IndexBuilder, IndexInfo } from './index-file/index-builder';
import { IndexDirectory } from './index-file/index-directory';
import { NetworkSnapshot, openSnapshot } from './network-snapshot';
import { IndexedNetwork, NetworkStore } from './network-store';

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
  /** INDEX_DIR when it can hold index files; absent: networks are built in memory. */
  index?: { dir: string; readOnly: boolean };
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
  index: IndexInfo;
  /** Present when asked for: the index other threads open with `open`. */
  snapshot?: NetworkSnapshot;
}

/** A served store and the queries running on it: a replaced store is closed once the last one finishes. */
interface ServedStore {
  store: NetworkStore;
  running: number;
  retired: boolean;
}

/**
 * The networks one thread serves. On a worker thread (the default) the pool prepares each network on
 * one worker (opens its index file, or builds it), which hands back a snapshot that every worker
 * `open`s; with SEARCH_WORKERS=0 the request thread prepares and serves them itself. Every query goes
 * through `call`; a network opened again (a reload) replaces the old store without failing the
 * queries still running on it.
 */
export class NetworkStores {
  private readonly stores = new Map<string, ServedStore>();
  /** Built on this thread, not yet served (the request thread still checks the id is unique). */
  private readonly pending = new Map<string, IndexedNetwork>();
  private options: NetworkStoresOptions = { queryCacheSize: 0 };
  private embeddings?: EmbeddingClient;

  configure(options: NetworkStoresOptions): void {
    this.options = options;
    this.embeddings = options.embedding ? new EmbeddingClient(options.embedding) : undefined;
  }

  /** Finds or builds one network folder's index; keeps it pending here, or returns its snapshot instead. */
  async build(root: string, folder: string, snapshot: boolean): Promise<BuiltNetwork> {
    const started = Date.now();
    const prepared = await this.builder().prepare(root, folder);
    const meta = prepared.meta;
    const built: BuiltNetwork = {
      id: meta.schema.id,
      schema: meta.schema,
      instanceCount: meta.instanceCount,
      hybridSearch: meta.vectorSize > 0 && this.embeddings !== undefined,
      embeddingError: meta.embeddingError,
      warnings: meta.warnings,
      missingColumns: meta.missingColumns,
      buildMs: 0,
      index: prepared.info,
    };
    const network = prepared.network;
    if (snapshot) {
      built.snapshot = network ? { bytes: network.index.serialize(), meta } : { file: prepared.file! };
      network?.index.close();
    } else {
      this.discard(built.id);
      this.pending.set(built.id, network ?? openSnapshot({ file: prepared.file! }, this.openOptions()));
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
    const network = openSnapshot(snapshot, this.openOptions());
    this.replace(network.schema.id, new NetworkStore(network));
  }

  /** Builds and serves a folder in one step: how a replacement worker catches up. */
  async rebuild(root: string, folder: string): Promise<void> {
    const built = await this.build(root, folder, false);
    this.serve(built.id);
  }

  /** Runs a query on a served network; the caller has checked that `knId` is one. */
  async call<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<StoreResult<M>> {
    const served = this.stores.get(knId);
    if (!served || !ALLOWED.has(method)) throw new Error(`no network "${knId}" or method "${method}" here`);
    const store = served.store;
    const run = store[method] as (...values: StoreArgs<M>) => StoreResult<M> | Promise<StoreResult<M>>;
    served.running += 1;
    try {
      return await run.apply(store, args);
    } finally {
      served.running -= 1;
      if (served.retired && served.running === 0) store.close();
    }
  }

  /** `call` with the result as JSON text: a string crosses to the request thread far cheaper than an object graph. */
  async callJson<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<string> {
    return JSON.stringify(await this.call(knId, method, args));
  }

  close(): void {
    for (const served of this.stores.values()) served.store.close();
    for (const id of [...this.pending.keys()]) this.discard(id);
    this.stores.clear();
  }

  private replace(id: string, store: NetworkStore): void {
    const old = this.stores.get(id);
    this.stores.set(id, { store, running: 0, retired: false });
    if (!old) return;
    old.retired = true;
    if (old.running === 0) old.store.close();
  }

  private builder(): IndexBuilder {
    const index = this.options.index;
    const embedding = this.options.embedding;
    return new IndexBuilder({
      directory: index ? new IndexDirectory(index.dir, index.readOnly) : undefined,
      embeddings: this.embeddings,
      embeddingName: embedding ? `${embedding.url} ${embedding.model}` : undefined,
      queryCacheSize: this.options.queryCacheSize,
    });
  }

  private openOptions(): { embeddings?: EmbeddingClient; queryCacheSize: number } {
    return { embeddings: this.embeddings, queryCacheSize: this.options.queryCacheSize };
  }
}

/** The worker-thread entry point (see common/workers/worker-main). */
export function createWorkerService(): NetworkStores {
  return new NetworkStores();
}

/** The networks as a worker-pool service. */
export const NETWORK_STORES = workerService<NetworkStores>('kn', __dirname, 'network-stores');
