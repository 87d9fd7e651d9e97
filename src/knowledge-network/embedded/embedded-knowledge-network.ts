import { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppException } from '../../common/errors/app.exception';
import { KnConfig } from '../../config';
import { resolveFromRoot } from '../../project-root';
import { KnErrors } from '../knowledge-network.errors';
import { KnowledgeNetworkPort } from '../knowledge-network.port';
import {
  ActionQueryResult,
  ConceptHit,
  ConceptSearchRequest,
  InstanceIdentity,
  InstanceQuery,
  InstanceQueryResult,
  KnHealth,
  KnSchema,
  KnSummary,
  LogicPropertyRequest,
  LogicPropertyResult,
  RelationTypePath,
  SubgraphResult,
} from '../knowledge-network.types';
import { BknFormatError } from './bkn/bkn-format.error';
import { EmbeddingClient } from './embedding-client';
import { NetworkLoader } from './network-loader';
import { NetworkStore } from './network-store';
import { buildNetworkStore } from './network-store-builder';

export interface NetworkLoadFailure {
  folder: string;
  error: string;
}

/**
 * The default adapter: every network folder under KN_DIR (BKN files + CSV) loaded into its own
 * in-memory SQLite index at start-up. A broken folder is logged as `file:line: problem` and skipped,
 * or stops start-up when KN_STRICT=true.
 */
export class EmbeddedKnowledgeNetwork extends KnowledgeNetworkPort implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('EmbeddedKnowledgeNetwork');
  private readonly stores = new Map<string, NetworkStore>();
  private readonly failures: NetworkLoadFailure[] = [];
  private root = '';
  private loaded = false;

  constructor(readonly config: KnConfig) {
    super();
  }

  async onModuleInit(): Promise<void> {
    this.root = resolveFromRoot(this.config.dir);
    const loader = new NetworkLoader(this.root);
    const folders = loader.folders();
    if (folders.length === 0) this.logger.warn(`no knowledge networks under ${this.root}`);
    const embeddings = this.config.embedding ? new EmbeddingClient(this.config.embedding) : undefined;
    for (const folder of folders) {
      await this.loadFolder(loader, folder, embeddings);
    }
    this.loaded = true;
    const mode = embeddings ? 'hybrid (BM25 + vectors)' : 'keyword only (BM25)';
    this.logger.log(`serving ${this.stores.size} knowledge network(s) from ${this.root}; search: ${mode}`);
  }

  onModuleDestroy(): void {
    for (const store of this.stores.values()) store.close();
    this.stores.clear();
  }

  override health(): Promise<KnHealth> {
    const stores = [...this.stores.values()];
    const ready = this.loaded && (this.stores.size > 0 || this.failures.length === 0);
    const hybrid = this.config.embedding !== undefined && stores.every((store) => store.hybridSearch);
    return Promise.resolve({
      ready,
      details: {
        backend: 'embedded',
        search: hybrid ? 'hybrid' : 'keyword-only',
        networks: stores.map((store) => {
          const { id, name, instance_count } = store.summary();
          const search = store.hybridSearch ? 'hybrid' : 'keyword-only';
          return store.embeddingError
            ? { id, name, instances: instance_count, search, embedding_error: store.embeddingError }
            : { id, name, instances: instance_count, search };
        }),
        failed: this.failures,
      },
    });
  }

  listNetworks(): Promise<KnSummary[]> {
    return Promise.resolve([...this.stores.values()].map((store) => store.summary()));
  }

  exportSchema(knId: string): Promise<KnSchema> {
    return this.run(knId, (store) => store.schema);
  }

  searchConcepts(knId: string, request: ConceptSearchRequest): Promise<ConceptHit[]> {
    return this.run(knId, (store) => store.searchConcepts(request));
  }

  queryInstances(knId: string, otId: string, query: InstanceQuery): Promise<InstanceQueryResult> {
    return this.run(knId, (store) => store.queryInstances(otId, query));
  }

  querySubgraph(knId: string, paths: RelationTypePath[]): Promise<SubgraphResult> {
    return this.run(knId, (store) => store.querySubgraph(paths));
  }

  queryActions(knId: string, atId: string, identities: InstanceIdentity[]): Promise<ActionQueryResult> {
    return this.run(knId, (store) => store.queryActions(atId, identities));
  }

  resolveLogicProperties(knId: string, otId: string, request: LogicPropertyRequest): Promise<LogicPropertyResult> {
    return this.run(knId, (store) => store.resolveLogicProperties(otId, request));
  }

  private async run<T>(knId: string, action: (store: NetworkStore) => T | Promise<T>): Promise<T> {
    const store = this.stores.get(knId);
    if (!store) {
      const known = [...this.stores.keys()].join(', ') || 'none';
      throw new AppException(KnErrors.NetworkNotFound, `knowledge network "${knId}" not found (available: ${known})`);
    }
    return action(store);
  }

  private async loadFolder(loader: NetworkLoader, folder: string, embeddings?: EmbeddingClient): Promise<void> {
    try {
      const network = loader.load(folder);
      const id = network.schema.network.id;
      if (this.stores.has(id)) {
        throw new BknFormatError(
          network.schema.network.origin.file,
          1,
          `network id "${id}" is already served from another folder`,
        );
      }
      for (const warning of network.warnings) this.logger.warn(warning);
      const started = Date.now();
      const store = await buildNetworkStore(network, { embeddings, queryCacheSize: this.config.queryCacheSize });
      if (store.embeddingError)
        this.logger.warn(`network "${id}" is keyword-only: embeddings failed (${store.embeddingError})`);
      this.stores.set(id, store);
      this.logger.log(`loaded network "${id}" from ${loader.relative(folder)} in ${Date.now() - started} ms`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (this.config.strict)
        throw new Error(`KN_STRICT: cannot load ${loader.relative(folder)}: ${message}`, {
          cause: error,
        });
      this.logger.error(`skipping network ${loader.relative(folder)}: ${message}`);
      this.failures.push({ folder: loader.relative(folder), error: message });
    }
  }
}
