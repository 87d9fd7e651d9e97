import { PreparedStore, ThreadStores } from '../../common/search/thread-stores';
import { workerService } from '../../common/workers/worker-service';
import { KnSchema } from '../knowledge-network.types';
import { EmbeddingClient, EmbeddingSettings } from '../../common/search/embedding-client';
import { IndexBuilder } from './index-file/index-builder';
import { IndexDirectory, IndexInfo } from '../../common/index-file/index-directory';
import { MappedPageBudget } from '../../common/index-file/mapped-pages';
import type { IndexVerify } from '../../config/kn.config';
import { NetworkSnapshot, openSnapshot } from './network-snapshot';
import { IndexedNetwork, NetworkStore } from './network-store';

/** The NetworkStore methods a request may run. */
const QUERIES = [
  'rankConcepts',
  'queryInstances',
  'queryInstanceBatch',
  'querySubgraph',
  'queryActions',
  'resolveLogicProperties',
] as const;
/** What a request may ask of a served network. */
export type NetworkQueries = Pick<NetworkStore, (typeof QUERIES)[number]>;

export interface NetworkStoresOptions {
  embedding?: EmbeddingSettings;
  queryCacheSize: number;
  /** The vector channel's share of fused rankings, 0..1 (HYBRID_VECTOR_WEIGHT). */
  vectorWeight?: number;
  /** INDEX_DIR when it can hold index files; absent: networks are built in memory. */
  index?: IndexSettings;
}

export interface IndexSettings {
  dir: string;
  readOnly: boolean;
  verify: IndexVerify;
  /** INDEX_MAPPED_MB in bytes; 0: index files are read without memory-mapping them. */
  mappedBytes: number;
}

/** What the request thread learns about a network one thread has indexed. */
export interface BuiltNetwork {
  id: string;
  schema: KnSchema;
  instanceCount: number;
  hybridSearch: boolean;
  /** Length of the network's vectors (0 without): a query vector of another length is refused. */
  vectorSize: number;
  embeddingError?: string;
  warnings: string[];
  /** Data files lacking declared columns (see LoadedNetwork). */
  missingColumns: string[];
  buildMs: number;
  index: IndexInfo;
  /** Present when asked for: the index other threads open with `open`. */
  snapshot?: NetworkSnapshot;
}

/**
 * The networks one thread serves (see ThreadStores): a network is prepared by opening its index file,
 * or building it; an index in memory crosses to the other threads as serialized bytes.
 */
export class NetworkStores extends ThreadStores<
  NetworkQueries,
  NetworkStoresOptions,
  BuiltNetwork,
  NetworkSnapshot,
  NetworkStore
> {
  private options: NetworkStoresOptions = { queryCacheSize: 0 };
  private embeddings?: EmbeddingClient;
  private mappedPages = new MappedPageBudget(0);

  constructor() {
    super(QUERIES);
  }

  configure(options: NetworkStoresOptions): void {
    this.options = options;
    this.embeddings = options.embedding ? new EmbeddingClient(options.embedding) : undefined;
    this.mappedPages = new MappedPageBudget(options.index?.mappedBytes ?? 0);
  }

  protected async prepare(
    root: string,
    folder: string,
  ): Promise<PreparedStore<BuiltNetwork, NetworkSnapshot, NetworkStore>> {
    const started = Date.now();
    const prepared = await this.builder().prepare(root, folder);
    const meta = prepared.meta;
    const built: BuiltNetwork = {
      id: meta.schema.id,
      schema: meta.schema,
      instanceCount: meta.instanceCount,
      hybridSearch: meta.vectorSize > 0 && this.embeddings !== undefined,
      vectorSize: meta.vectorSize,
      embeddingError: meta.embeddingError,
      warnings: meta.warnings,
      missingColumns: meta.missingColumns,
      buildMs: Date.now() - started,
      index: prepared.info,
    };
    const network = prepared.network;
    return {
      built,
      snapshot: () => {
        if (!network) return { file: prepared.file! };
        const bytes = network.index.serialize();
        network.index.close();
        return { bytes, meta };
      },
      store: () => this.store(network ?? openSnapshot({ file: prepared.file! }, this.openOptions())),
    };
  }

  protected openSnapshot(snapshot: NetworkSnapshot): { id: string; store: NetworkStore } {
    const network = openSnapshot(snapshot, this.openOptions());
    return { id: network.schema.id, store: this.store(network) };
  }

  /** Past INDEX_MAPPED_MB, every store on this thread unmaps its index files (the pages stay in the page cache). */
  protected override afterQuery(): void {
    if (this.mappedPages.exceeded()) for (const store of this.served()) store.releaseMappedPages();
  }

  private store(network: IndexedNetwork): NetworkStore {
    return new NetworkStore({ ...network, vectorWeight: this.options.vectorWeight });
  }

  private builder(): IndexBuilder {
    const index = this.options.index;
    const embedding = this.options.embedding;
    return new IndexBuilder({
      directory: index ? new IndexDirectory(index.dir, index.readOnly, index.verify) : undefined,
      embeddings: this.embeddings,
      embeddingName: embedding ? `${embedding.url} ${embedding.model}` : undefined,
      queryCacheSize: this.options.queryCacheSize,
    });
  }

  private openOptions(): Parameters<typeof openSnapshot>[1] {
    const mapped = (this.options.index?.mappedBytes ?? 1) > 0;
    return { embeddings: this.embeddings, queryCacheSize: this.options.queryCacheSize, mapped };
  }
}

/** The worker-thread entry point (see common/workers/worker-main). */
export function createWorkerService(): NetworkStores {
  return new NetworkStores();
}

/** The networks as a worker-pool service. */
export const NETWORK_STORES = workerService<NetworkStores>('kn', __dirname, 'network-stores');
