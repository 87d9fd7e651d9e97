import { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import * as path from 'node:path';
import { WorkerPool } from '../../common/workers/worker-pool';
import { AppException } from '../../common/errors/app.exception';
import { KnConfig } from '../../config';
import { resolveFromRoot } from '../../project-root';
import { networkNotFound } from '../knowledge-network.errors';
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
  MetricSearchRequest,
  MetricType,
  RelationTypePath,
  SubgraphOptions,
  SubgraphResult,
} from '../knowledge-network.types';
import { BknFormatError } from './bkn/bkn-format.error';
import { rankMetrics } from './metric-ranking';
import { NetworkLoader } from './network-loader';
import { BuiltNetwork, StoreArgs, StoreMethod, StoreResult } from './network-stores';
import { InlineStoreRunner, PooledStoreRunner, StoreRunner } from './store-runner';

export interface NetworkLoadFailure {
  folder: string;
  error: string;
}

/**
 * The default adapter: every network folder under KN_DIR (BKN files + CSV) indexed into SQLite at
 * start-up. The indexes live on the search worker pool (SEARCH_WORKERS), so queries never run on the
 * request thread; this side keeps each network's schema and answers schema and listing calls itself.
 * A broken folder is logged as `file:line: problem` and skipped, or stops start-up when KN_STRICT=true.
 */
export class EmbeddedKnowledgeNetwork extends KnowledgeNetworkPort implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('EmbeddedKnowledgeNetwork');
  private readonly networks = new Map<string, BuiltNetwork>();
  private readonly failures: NetworkLoadFailure[] = [];
  private readonly runner: StoreRunner;
  private loaded = false;

  constructor(
    readonly config: KnConfig,
    pool?: WorkerPool,
  ) {
    super();
    const options = { embedding: config.embedding, queryCacheSize: config.queryCacheSize };
    this.runner = pool && pool.size > 0 ? new PooledStoreRunner(pool, options) : new InlineStoreRunner(options);
  }

  async onModuleInit(): Promise<void> {
    const root = resolveFromRoot(this.config.dir);
    const loader = new NetworkLoader(root);
    const folders = loader.folders();
    if (folders.length === 0) this.logger.warn(`no knowledge networks under ${root}`);
    // Folders are indexed in parallel (one per free worker) and then served in folder order.
    const builds = folders.map((folder) =>
      this.runner.build(root, folder).then(
        (built) => ({ built }),
        (error: unknown) => ({ error }),
      ),
    );
    for (const [i, folder] of folders.entries()) {
      const outcome = await builds[i];
      await this.serve(loader, folder, root, outcome);
    }
    this.loaded = true;
    const mode = this.config.embedding ? 'hybrid (BM25 + vectors)' : 'keyword only (BM25)';
    const threads = this.runner.threads > 0 ? `${this.runner.threads} worker thread(s)` : 'the request thread';
    this.logger.log(`serving ${this.networks.size} knowledge network(s) from ${root} on ${threads}; search: ${mode}`);
  }

  onModuleDestroy(): void {
    this.runner.close();
    this.networks.clear();
  }

  override health(): Promise<KnHealth> {
    const networks = [...this.networks.values()];
    const ready = this.loaded && (this.networks.size > 0 || this.failures.length === 0);
    const hybrid = this.config.embedding !== undefined && networks.every((network) => network.hybridSearch);
    return Promise.resolve({
      ready,
      details: {
        backend: 'embedded',
        search: hybrid ? 'hybrid' : 'keyword-only',
        worker_threads: this.runner.threads,
        networks: networks.map((network) => {
          const { id, name, instance_count } = summaryOf(network);
          const search = network.hybridSearch ? 'hybrid' : 'keyword-only';
          return network.embeddingError
            ? { id, name, instances: instance_count, search, embedding_error: network.embeddingError }
            : { id, name, instances: instance_count, search };
        }),
        failed: this.failures,
      },
    });
  }

  listNetworks(): Promise<KnSummary[]> {
    return Promise.resolve([...this.networks.values()].map(summaryOf));
  }

  exportSchema(knId: string): Promise<KnSchema> {
    return Promise.resolve(this.network(knId).schema);
  }

  searchConcepts(knId: string, request: ConceptSearchRequest): Promise<ConceptHit[]> {
    return this.call(knId, 'searchConcepts', [request]);
  }

  /** Metrics are few per network; they are ranked here, on the request thread, from the loaded schema. */
  searchMetrics(knId: string, request: MetricSearchRequest): Promise<MetricType[]> {
    return Promise.resolve(rankMetrics(this.network(knId).schema.metric_types ?? [], request));
  }

  queryInstances(knId: string, otId: string, query: InstanceQuery): Promise<InstanceQueryResult> {
    return this.call(knId, 'queryInstances', [otId, query]);
  }

  querySubgraph(knId: string, paths: RelationTypePath[], options?: SubgraphOptions): Promise<SubgraphResult> {
    return this.call(knId, 'querySubgraph', [paths, options]);
  }

  queryActions(knId: string, atId: string, identities: InstanceIdentity[]): Promise<ActionQueryResult> {
    return this.call(knId, 'queryActions', [atId, identities]);
  }

  resolveLogicProperties(knId: string, otId: string, request: LogicPropertyRequest): Promise<LogicPropertyResult> {
    return this.call(knId, 'resolveLogicProperties', [otId, request]);
  }

  private async call<M extends StoreMethod>(knId: string, method: M, args: StoreArgs<M>): Promise<StoreResult<M>> {
    const network = this.network(knId);
    return this.runner.call(knId, method, args, !network.hybridSearch);
  }

  private network(knId: string): BuiltNetwork {
    const network = this.networks.get(knId);
    if (!network) throw new AppException(...networkNotFound(knId));
    return network;
  }

  private async serve(
    loader: NetworkLoader,
    folder: string,
    root: string,
    outcome: { built?: BuiltNetwork; error?: unknown },
  ): Promise<void> {
    try {
      if (!outcome.built) throw outcome.error;
      const built = outcome.built;
      if (this.networks.has(built.id)) {
        this.runner.discard(built);
        const origin = path.join(loader.relative(folder), 'network.bkn');
        throw new BknFormatError(origin, 1, `network id "${built.id}" is already served from another folder`);
      }
      if (this.config.strict && built.missingColumns.length > 0) {
        this.runner.discard(built);
        throw new Error(built.missingColumns.join('; '));
      }
      for (const warning of [...built.warnings, ...built.missingColumns]) this.logger.warn(warning);
      if (built.embeddingError)
        this.logger.warn(`network "${built.id}" is keyword-only: embeddings failed (${built.embeddingError})`);
      await this.runner.serve(built, root, folder);
      this.networks.set(built.id, built);
      this.logger.log(`loaded network "${built.id}" from ${loader.relative(folder)} in ${built.buildMs} ms`);
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

function summaryOf({ schema, instanceCount }: BuiltNetwork): KnSummary {
  return {
    id: schema.id,
    name: schema.name,
    comment: schema.comment,
    object_type_count: schema.object_types.length,
    relation_type_count: schema.relation_types.length,
    action_type_count: schema.action_types.length,
    instance_count: instanceCount,
  };
}
