import { PreparedStore, ThreadStores } from '../../common/search/thread-stores';
import { workerService } from '../../common/workers/worker-service';
import { KnSchema } from '../knowledge-network.types';
import { EmbeddingClient, EmbeddingSettings } from '../../common/search/embedding-client';
import { IndexBuilder, IndexInfo } from './index-file/index-builder';
import { IndexDirectory } from './index-file/index-directory';
import { NetworkSnapshot, openSnapshot } from './network-snapshot';
import { NetworkStore } from './network-store';

/** The NetworkStore methods a request may run. */
const QUERIES = [
  'searchConcepts',
  'queryInstances',
  'querySubgraph',
  'queryActions',
  'resolveLogicProperties',
] as const;
/** What a request may ask of a served network. */
export type NetworkQueries = Pick<NetworkStore, (typeof QUERIES)[number]>;

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

/**
 * The networks one thread serves (see ThreadStores): a network is prepared by opening its index file,
 * or building it; an index in memory crosses to the other threads as serialized bytes.
 */
export class NetworkStores extends ThreadStores<NetworkQueries, NetworkStoresOptions, BuiltNetwork, NetworkSnapshot> {
  private options: NetworkStoresOptions = { queryCacheSize: 0 };
  private embeddings?: EmbeddingClient;

  constructor() {
    super(QUERIES);
  }

  configure(options: NetworkStoresOptions): void {
    this.options = options;
    this.embeddings = options.embedding ? new EmbeddingClient(options.embedding) : undefined;
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
      store: () => new NetworkStore(network ?? openSnapshot({ file: prepared.file! }, this.openOptions())),
    };
  }

  protected openSnapshot(snapshot: NetworkSnapshot): { id: string; store: NetworkStore } {
    const network = openSnapshot(snapshot, this.openOptions());
    return { id: network.schema.id, store: new NetworkStore(network) };
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
