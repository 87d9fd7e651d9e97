import { Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import * as path from 'node:path';
import { WorkerPool } from '../../common/workers/worker-pool';
import { AppException } from '../../common/errors/app.exception';
import { KnConfig } from '../../config';
import { resolveFromRoot } from '../../project-root';
import { KnErrors, networkNotFound } from '../knowledge-network.errors';
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
  NetworkIndexStatus,
  RelationTypePath,
  SubgraphOptions,
  SubgraphResult,
  TypedInstanceQuery,
} from '../knowledge-network.types';
import { BknFormatError } from './bkn/bkn-format.error';
import { IndexDirectory } from '../../common/index-file/index-directory';
import { rankMetrics } from './metric-ranking';
import { NetworkLoader } from './network-loader';
import { InlineStoreRunner, PooledStoreRunner, StoreRunner } from '../../common/search/store-runner';
import { Remote } from '../../common/workers/worker-service';
import { BuiltNetwork, NETWORK_STORES, NetworkQueries, NetworkStores } from './network-stores';
import { withConceptDetails } from './network-store';
import { NetworkWatcher } from './network-watcher';
import { QueryVectors, searchLeaves } from './hybrid-search';
import { RecallChannels } from './recall-channels';
import { healthEntryOf, ServedNetwork, statusOf, summaryOf } from './served-network';

export interface NetworkLoadFailure {
  folder: string;
  error: string;
}

type BuildOutcome = { built?: BuiltNetwork; error?: unknown };

/**
 * The default adapter: every network folder under KN_DIR (BKN files + CSV) indexed into a SQLite file
 * under INDEX_DIR, built once and opened by every later start. The indexes live on the search worker
 * pool (SEARCH_WORKERS), so queries never run on the request thread; this side keeps each network's
 * schema and answers schema and listing calls itself. A changed folder (KN_WATCH) or a reload request
 * is re-indexed in the background and swapped in; a failed re-index keeps the previous index.
 * A broken folder is logged as `file:line: problem` and skipped, or stops start-up when KN_STRICT=true.
 */
export class EmbeddedKnowledgeNetwork
  extends KnowledgeNetworkPort
  implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger('EmbeddedKnowledgeNetwork');
  private readonly networks = new Map<string, ServedNetwork>();
  private readonly failures: NetworkLoadFailure[] = [];
  private readonly runner: StoreRunner<NetworkQueries, BuiltNetwork>;
  private readonly directory?: IndexDirectory;
  private readonly root: string;
  private readonly loader: NetworkLoader;
  /** Re-indexes of a folder run one after another. */
  private readonly reindexing = new Map<string, Promise<unknown>>();
  private readonly queued = new Map<string, Promise<void>>();
  private watcher?: NetworkWatcher;
  private loaded = false;
  private readonly channels: RecallChannels;
  private loading?: Promise<void>;

  /** `channels`: the query-time embedding and rerank calls (by default: embeddings only, unobserved). */
  constructor(
    readonly config: KnConfig,
    pool?: WorkerPool,
    channels?: RecallChannels,
  ) {
    super();
    this.channels = channels ?? new RecallChannels({ ...config.hybrid, embedding: config.embedding });
    this.root = resolveFromRoot(config.dir);
    this.loader = new NetworkLoader(this.root);
    this.directory = this.indexDirectory();
    const index = this.directory
      ? {
          dir: this.directory.dir,
          readOnly: this.directory.readOnly,
          verify: config.indexVerify,
          mappedBytes: config.indexMappedBytes,
        }
      : undefined;
    const options = {
      embedding: config.embedding,
      queryCacheSize: config.queryCacheSize,
      vectorWeight: config.hybrid.vectorWeight,
      index,
    };
    this.runner =
      pool && pool.size > 0
        ? new PooledStoreRunner(pool, NETWORK_STORES, options, config.queryCacheSize)
        : new InlineStoreRunner(new NetworkStores(), options);
  }

  /**
   * Starts indexing without waiting: the modules initialised after this one (knowledge-base search)
   * start their own indexing meanwhile, on the other workers. The app listens only once `load` is done.
   */
  onModuleInit(): void {
    this.load().catch(() => undefined);
  }

  /** Start-up fails here when loading did (KN_STRICT). */
  onApplicationBootstrap(): Promise<void> {
    return this.load();
  }

  /** Indexes and serves every network folder, once; later calls return the same promise. */
  load(): Promise<void> {
    this.loading ??= this.loadFolders();
    return this.loading;
  }

  private async loadFolders(): Promise<void> {
    const folders = this.loader.folders();
    if (folders.length === 0) this.logger.warn(`no knowledge networks under ${this.root}`);
    // Folders are indexed in parallel (one per free worker) and then served in folder order.
    const builds = folders.map((folder) => this.build(folder));
    for (const [i, folder] of folders.entries()) await this.serve(folder, await builds[i]);
    this.loaded = true;
    const rerank = this.channels.rerankMode === 'off' ? '' : `, rerank ${this.channels.rerankMode}`;
    const mode = `${this.config.embedding ? 'hybrid (BM25 + vectors)' : 'keyword only (BM25)'}${rerank}`;
    const threads = this.runner.threads > 0 ? `${this.runner.threads} worker thread(s)` : 'the request thread';
    this.logger.log(
      `serving ${this.networks.size} knowledge network(s) from ${this.root} on ${threads}; search: ${mode}`,
    );
    if (this.config.watch) {
      this.watcher = new NetworkWatcher((folder) => void this.changed(folder).catch(() => undefined));
      this.watcher.watch(this.root, false);
      for (const folder of folders) this.watcher.watch(folder);
    }
  }

  onModuleDestroy(): void {
    this.watcher?.close();
    this.runner.close();
    this.networks.clear();
  }

  override async reloadNetwork(knId: string): Promise<NetworkIndexStatus> {
    const served = this.served(knId);
    await this.reindex(served.folder);
    const current = this.served(knId);
    if (current.state === 'failed')
      throw new AppException(KnErrors.IndexBuildFailed, `the previous index is still served: ${current.error}`);
    return statusOf(current);
  }

  override health(): Promise<KnHealth> {
    const networks = [...this.networks.values()].map((served) => served.built);
    const ready = this.loaded && (this.networks.size > 0 || this.failures.length === 0);
    const hybrid = this.config.embedding !== undefined && networks.every((network) => network.hybridSearch);
    return Promise.resolve({
      ready,
      details: {
        backend: 'embedded',
        search: hybrid ? 'hybrid' : 'keyword-only',
        worker_threads: this.runner.threads,
        index_storage: this.directory ? 'file' : 'memory',
        networks: [...this.networks.values()].map(healthEntryOf),
        failed: this.failures,
      },
    });
  }

  listNetworks(): Promise<KnSummary[]> {
    return Promise.resolve([...this.networks.values()].map((served) => summaryOf(served.built)));
  }

  exportSchema(knId: string): Promise<KnSchema> {
    return Promise.resolve(this.network(knId).schema);
  }

  /** Keyword (and vector, with the query's embedding) concept search on a worker, then the cross-encoder here. */
  async searchConcepts(knId: string, request: ConceptSearchRequest): Promise<ConceptHit[]> {
    const network = this.network(knId);
    const vectors = network.hybridSearch ? await this.channels.queryVectors([request.query], network.vectorSize) : {};
    const ranked = await this.queries(knId).rankConcepts(request, vectors[request.query]);
    return this.channels.rerankConcepts(request.query, withConceptDetails(network.schema, ranked));
  }

  /** Metrics are few per network; they are ranked here, on the request thread, from the loaded schema. */
  searchMetrics(knId: string, request: MetricSearchRequest): Promise<MetricType[]> {
    return Promise.resolve(rankMetrics(this.network(knId).schema.metric_types ?? [], request));
  }

  /** Relevance-ranked by a worker (with the embeddings of the condition's search texts), then the cross-encoder here. */
  async queryInstances(knId: string, otId: string, query: InstanceQuery): Promise<InstanceQueryResult> {
    const network = this.network(knId);
    const texts = searchLeaves(query.condition).map((leaf) => String(leaf.value));
    const vectors = network.hybridSearch ? await this.channels.queryVectors(texts, network.vectorSize) : {};
    const result = await this.queries(knId).queryInstances(otId, query, vectors);
    if (texts.length === 0 || this.channels.rerankMode === 'off') return result;
    return { ...result, datas: await this.channels.rerankInstances(texts[0], result.datas) };
  }

  /** As queryInstances per query, with one embedding request and one worker trip for them all. */
  override async queryInstanceBatch(knId: string, queries: TypedInstanceQuery[]): Promise<InstanceQueryResult[]> {
    const network = this.network(knId);
    const texts = queries.map(({ query }) => searchLeaves(query.condition).map((leaf) => String(leaf.value)));
    const vectors = network.hybridSearch ? await this.channels.queryVectors(texts.flat(), network.vectorSize) : {};
    const results = await this.runBatch(knId, queries, texts, vectors);
    if (this.channels.rerankMode === 'off') return results;
    return Promise.all(
      results.map(async (result, i) =>
        texts[i].length === 0
          ? result
          : { ...result, datas: await this.channels.rerankInstances(texts[i][0], result.datas) },
      ),
    );
  }

  /**
   * The batch in one worker trip; or, while several workers are idle (a lone request), spread over them:
   * each takes the next query when it finishes one, so the batch lasts about its share of the work
   * instead of the sum (the types of a large network differ several times in cost). Under load no
   * worker is idle and the batch is one task, as splitting would only add trips.
   */
  private async runBatch(
    knId: string,
    queries: TypedInstanceQuery[],
    texts: string[][],
    vectors: QueryVectors,
  ): Promise<InstanceQueryResult[]> {
    const remote = this.queries(knId);
    const lanes = Math.min(this.runner.idleThreads, queries.length);
    if (lanes < 2) return remote.queryInstanceBatch(queries, vectors);
    const results: InstanceQueryResult[] = new Array<InstanceQueryResult>(queries.length);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < queries.length) {
        const at = next++;
        const own = Object.fromEntries(
          texts[at].filter((text) => Object.hasOwn(vectors, text)).map((text) => [text, vectors[text]]),
        );
        [results[at]] = await remote.queryInstanceBatch([queries[at]], own);
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    return results;
  }

  querySubgraph(knId: string, paths: RelationTypePath[], options?: SubgraphOptions): Promise<SubgraphResult> {
    return this.queries(knId).querySubgraph(paths, options);
  }

  queryActions(knId: string, atId: string, identities: InstanceIdentity[]): Promise<ActionQueryResult> {
    return this.queries(knId).queryActions(atId, identities);
  }

  resolveLogicProperties(knId: string, otId: string, request: LogicPropertyRequest): Promise<LogicPropertyResult> {
    return this.queries(knId).resolveLogicProperties(otId, request);
  }

  /** A served network's queries (a 404 for an unknown id); keyword-only answers may be cached. */
  private queries(knId: string): Remote<NetworkQueries> {
    return this.runner.queries(knId, !this.network(knId).hybridSearch);
  }

  private network(knId: string): BuiltNetwork {
    return this.served(knId).built;
  }

  private served(knId: string): ServedNetwork {
    const served = this.networks.get(knId);
    if (!served) throw new AppException(...networkNotFound(knId));
    return served;
  }

  /** INDEX_DIR, or undefined when this process cannot write there and may build (indexes stay in memory). */
  private indexDirectory(): IndexDirectory | undefined {
    const directory = new IndexDirectory(
      resolveFromRoot(this.config.indexDir),
      this.config.indexReadOnly,
      this.config.indexVerify,
    );
    const reason = directory.unusableReason();
    if (reason === undefined || directory.readOnly) return directory;
    this.logger.warn(
      `INDEX_DIR ${directory.dir} is not writable (${reason}): indexes are built in memory at every start`,
    );
    return undefined;
  }

  private build(folder: string): Promise<BuildOutcome> {
    return this.runner.build(this.root, folder).then(
      (built) => ({ built }),
      (error: unknown) => ({ error }),
    );
  }

  /**
   * Re-indexes one folder after the re-index running for it; requests that arrive meanwhile share one
   * queued run (a burst of changes or reload calls costs at most one more build). A folder not served
   * yet is loaded.
   */
  private reindex(folder: string): Promise<void> {
    const queued = this.queued.get(folder);
    if (queued) return queued;
    const previous = this.reindexing.get(folder) ?? Promise.resolve();
    const next = previous.then(() => {
      this.queued.delete(folder);
      return this.reindexNow(folder);
    });
    this.queued.set(folder, next);
    this.reindexing.set(
      folder,
      next.catch(() => undefined),
    );
    return next;
  }

  /** A watched folder changed; KN_DIR itself changes when a network folder is added or removed. */
  private async changed(folder: string): Promise<void> {
    if (folder !== this.root) return this.reindex(folder);
    const present = this.loader.folders();
    const known = this.watcher!.folders.filter((watched) => watched !== this.root);
    const added = present.filter((candidate) => !known.includes(candidate));
    const removed = known.filter((watched) => !present.includes(watched));
    for (const gone of removed) this.watcher!.unwatch(gone);
    for (const fresh of added) this.watcher!.watch(fresh);
    await Promise.all([...removed, ...added].map((changed) => this.reindex(changed)));
  }

  private async reindexNow(folder: string): Promise<void> {
    const current = [...this.networks.values()].find((served) => served.folder === folder);
    if (!this.loader.folders().includes(folder)) return this.unload(folder, current);
    if (!current) return this.serve(folder, await this.build(folder));
    current.state = 'building';
    current.error = undefined;
    const outcome = await this.build(folder);
    try {
      await this.swap(current, outcome);
    } catch (error) {
      current.state = 'failed';
      current.error = error instanceof Error ? error.message : String(error);
      this.logger.error(
        `re-indexing ${this.loader.relative(folder)} failed; the previous index still serves: ${current.error}`,
      );
    }
  }

  /** A network folder is gone: its network stops being served (queries running on it finish). */
  private async unload(folder: string, current: ServedNetwork | undefined): Promise<void> {
    const relative = this.loader.relative(folder);
    this.forgetFailure(relative);
    if (!current) return;
    this.networks.delete(current.built.id);
    await this.runner.unserve(current.built.id, folder);
    this.logger.log(`unloaded network "${current.built.id}": its folder ${relative} is gone`);
  }

  /** Serves a re-built network in place of `current`; its old index file goes once every worker has let go. */
  private async swap(current: ServedNetwork, outcome: BuildOutcome): Promise<void> {
    if (!outcome.built) throw outcome.error;
    const built = outcome.built;
    const old = current.built;
    if (built.id !== old.id) {
      this.runner.discard(built);
      throw new Error(`the network id changed from "${old.id}" to "${built.id}"; restart to serve it under the new id`);
    }
    if (built.index.hash === old.index.hash) {
      this.runner.discard(built);
      current.state = 'ready';
      return;
    }
    for (const warning of [...built.warnings, ...built.missingColumns]) this.logger.warn(warning);
    await this.runner.serve(built, this.root, current.folder);
    current.built = built;
    current.state = 'ready';
    if (old.index.file && old.index.file !== built.index.file) this.directory?.remove(old.index.file);
    this.logger.log(`re-indexed network "${built.id}" in ${built.buildMs} ms (index ${built.index.hash})`);
  }

  private async serve(folder: string, outcome: BuildOutcome): Promise<void> {
    const relative = this.loader.relative(folder);
    try {
      if (!outcome.built) throw outcome.error;
      const built = outcome.built;
      if (this.networks.has(built.id)) {
        this.runner.discard(built);
        const origin = path.join(relative, 'network.bkn');
        throw new BknFormatError(origin, 1, `network id "${built.id}" is already served from another folder`);
      }
      if (this.config.strict && built.missingColumns.length > 0) {
        this.runner.discard(built);
        throw new Error(built.missingColumns.join('; '));
      }
      for (const warning of [...built.warnings, ...built.missingColumns]) this.logger.warn(warning);
      if (built.embeddingError)
        this.logger.warn(`network "${built.id}" is keyword-only: embeddings failed (${built.embeddingError})`);
      await this.runner.serve(built, this.root, folder);
      this.networks.set(built.id, { built, folder, state: 'ready' });
      this.forgetFailure(relative);
      if (built.index.file) this.directory?.removeOthers(folder, built.index.file);
      const how = built.index.reused ? `opened index ${built.index.hash}` : `indexed (${built.index.storage})`;
      this.logger.log(`loaded network "${built.id}" from ${relative} in ${built.buildMs} ms: ${how}`);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (this.config.strict && !this.loaded)
        throw new Error(`KN_STRICT: cannot load ${relative}: ${message}`, {
          cause: error,
        });
      this.logger.error(`skipping network ${relative}: ${message}`);
      this.forgetFailure(relative);
      this.failures.push({ folder: relative, error: message });
    }
  }

  private forgetFailure(relative: string): void {
    const at = this.failures.findIndex((failure) => failure.folder === relative);
    if (at >= 0) this.failures.splice(at, 1);
  }
}
