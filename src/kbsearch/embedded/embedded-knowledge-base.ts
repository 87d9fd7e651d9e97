import { Logger, OnModuleInit } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { AppException } from '../../common/errors/app.exception';
import { WorkerPool } from '../../common/workers/worker-pool';
import { KbConfig, KnConfig } from '../../config';
import { resolveFromRoot } from '../../project-root';
import { KbErrors } from '../kbsearch.errors';
import { KbConnection, KbSearchAnswer, KbSearchInput, KnowledgeBase, KnowledgeBasePort } from '../kb.types';
import { StoreAnswer, StoreQuery } from './kb-store';
import { InlineStoreRunner, PooledStoreRunner, StoreRunner } from '../../common/search/store-runner';
import { BuiltDocs, DOCUMENTS_ID, KB_STORES, KbQueries, KbStores, KbStoresOptions } from './kb-stores';
import { PassageReranker } from './passage-reranker';
import { IndexDirectory } from '../../common/index-file/index-directory';

/** The documents index in /health: like a network's (state, hash, storage, built_at, build_ms, reused). */
type KbIndexHealth =
  { state: 'none' } | { state: 'failed'; error: string } | { state: 'ready'; index: Record<string, unknown> };

function indexStatus({ index, passages }: BuiltDocs): Record<string, unknown> {
  const { hash, storage, builtAt, buildMs, reused } = index;
  return { hash, storage, built_at: builtAt, build_ms: buildMs, reused, passages };
}

/** Candidates ranked per search: enough for top_k 50 and a rerank, bounded whatever top_k says. */
const candidatesFor = (topK: number): number => Math.min(250, Math.max(50, topK * 5));

/**
 * Knowledge bases from a local documents folder (DOCS_DIR, one sub-folder per knowledge base), indexed
 * at start-up in the embedded search engine and searched on the shared worker pool (service `kb`).
 */
export class EmbeddedKnowledgeBase extends KnowledgeBasePort implements OnModuleInit {
  readonly backend = 'embedded';
  private readonly logger = new Logger('EmbeddedKnowledgeBase');
  private readonly runner: StoreRunner<KbQueries, BuiltDocs>;
  private readonly rerank?: PassageReranker;
  private bases: KnowledgeBase[] = [];
  private vectors = false;
  private served = false;
  private status: KbIndexHealth = { state: 'none' };

  constructor(
    private readonly config: KbConfig,
    private readonly kn: KnConfig,
    pool: WorkerPool,
  ) {
    super();
    const options = { embedding: kn.embedding, index: this.indexDirectory() };
    this.runner =
      pool.size > 0
        ? new PooledStoreRunner(pool, KB_STORES, options, 0)
        : new InlineStoreRunner(new KbStores(), options);
    this.rerank = config.rerank ? new PassageReranker(config.rerank) : undefined;
  }

  async onModuleInit(): Promise<void> {
    const root = resolveFromRoot(this.config.docsDir);
    if (!existsSync(root)) {
      this.logger.warn(`no documents folder at ${root} (DOCS_DIR): knowledge-base search has nothing to search`);
      return;
    }
    let built: BuiltDocs;
    try {
      built = await this.runner.build(root, root);
      await this.runner.serve(built, root, root);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.status = { state: 'failed', error: message };
      this.logger.error(`knowledge-base search has nothing to search: indexing ${root} failed: ${message}`);
      return;
    }
    this.served = true;
    this.status = { state: 'ready', index: indexStatus(built) };
    for (const warning of built.warnings) this.logger.warn(`${warning} (DOCS_DIR ${root})`);
    if (built.embeddingError)
      this.logger.warn(`documents are keyword-only: embeddings failed (${built.embeddingError})`);
    this.bases = built.bases;
    this.vectors = this.kn.embedding !== undefined && built.embeddingError === undefined;
    const documents = built.bases.reduce((sum, base) => sum + base.document_count, 0);
    this.logger.log(
      `serving ${built.bases.length} knowledge base(s), ${documents} document(s), ${built.passages} passage(s) ` +
        `from ${root} in ${built.buildMs} ms; search: ${this.vectors ? 'hybrid (BM25 + vectors)' : 'keyword only (BM25)'}`,
    );
  }

  override health(): Record<string, unknown> {
    const passages = this.status.state === 'ready' ? { knowledge_bases: this.bases.length } : {};
    return { backend: this.backend, search: this.vectors ? 'hybrid' : 'keyword-only', ...passages, ...this.status };
  }

  get knowledgeBases(): readonly KnowledgeBase[] {
    return this.bases;
  }

  async search(input: KbSearchInput, connection: KbConnection): Promise<KbSearchAnswer> {
    const bases = this.scope(connection);
    if (input.search_mode === 'vector' && !this.vectors) {
      throw new AppException(
        KbErrors.VectorSearchUnavailable,
        'vector search needs an embedding endpoint (EMBEDDING_URL)',
      );
    }
    const reranking = this.rerank !== undefined && input.rerank;
    const query: StoreQuery = {
      query: input.query,
      mode: input.search_mode,
      kbIds: bases.map((base) => base.id),
      candidates: candidatesFor(input.top_k),
      // A reranker rescores every candidate; the threshold applies to its scores.
      minScore: reranking ? 0 : input.min_score,
      // Without a reranker the order is final: only top_k passages need to cross from the worker.
      keep: reranking ? undefined : input.top_k,
    };
    const answer = await this.run(query);
    if (!reranking) return { results: answer.results, total_count: answer.total };
    const results = (await this.rerank!.rerank(input.query, answer.results)).filter((r) => r.score >= input.min_score);
    return { results, total_count: results.length };
  }

  listKnowledgeBases(connection: KbConnection): Promise<KnowledgeBase[]> {
    return Promise.resolve(this.scope(connection));
  }

  /** The connection's knowledge bases (all when it names none); an unknown id is a 404 naming it. */
  private scope(connection: KbConnection): KnowledgeBase[] {
    if (connection.kbIds.length === 0) return this.bases;
    return connection.kbIds.map((id) => {
      const base = this.bases.find((candidate) => candidate.id === id);
      if (!base)
        throw new AppException(KbErrors.KnowledgeBaseNotFound, `knowledge base "${id.slice(0, 128)}" not found`);
      return base;
    });
  }

  /** INDEX_DIR, or undefined (indexed in memory, with a warning) when this process cannot write there and may build. */
  private indexDirectory(): KbStoresOptions['index'] {
    const directory = new IndexDirectory(resolveFromRoot(this.kn.indexDir), this.kn.indexReadOnly);
    const reason = directory.unusableReason();
    if (reason === undefined || directory.readOnly)
      return { dir: directory.dir, readOnly: directory.readOnly, verify: this.kn.indexVerify };
    this.logger.warn(
      `INDEX_DIR ${directory.dir} is not writable (${reason}): documents are indexed in memory at every start`,
    );
    return undefined;
  }

  private async run(query: StoreQuery): Promise<StoreAnswer> {
    if (!this.served) return { results: [], total: 0 };
    return this.runner.queries(DOCUMENTS_ID, false).search(query);
  }
}
