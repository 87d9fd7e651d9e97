import { Logger, OnModuleInit } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { AppException } from '../../common/errors/app.exception';
import { WorkerPool } from '../../common/workers/worker-pool';
import { KbConfig, KnConfig } from '../../config';
import { resolveFromRoot } from '../../project-root';
import { KbErrors } from '../kbsearch.errors';
import { KbConnection, KbSearchAnswer, KbSearchInput, KnowledgeBase, KnowledgeBasePort } from '../kb.types';
import { StoreAnswer, StoreQuery } from './kb-store';
import { BuiltDocs, KbStores } from './kb-stores';
import { RerankClient } from './rerank-client';

const SERVICE = 'kb';
/** Candidates ranked per search: enough for top_k 50 and a rerank, bounded whatever top_k says. */
const candidatesFor = (topK: number): number => Math.min(250, Math.max(50, topK * 5));

/**
 * Knowledge bases from a local documents folder (DOCS_DIR, one sub-folder per knowledge base), indexed
 * at start-up in the embedded search engine and searched on the shared worker pool (service `kb`).
 */
export class EmbeddedKnowledgeBase extends KnowledgeBasePort implements OnModuleInit {
  readonly backend = 'embedded';
  private readonly logger = new Logger('EmbeddedKnowledgeBase');
  private readonly inline?: KbStores;
  private readonly rerank?: RerankClient;
  private bases: KnowledgeBase[] = [];
  private vectors = false;

  constructor(
    private readonly config: KbConfig,
    private readonly kn: KnConfig,
    private readonly pool: WorkerPool,
  ) {
    super();
    const options = { embedding: kn.embedding };
    if (pool.size > 0) {
      pool.register(SERVICE, __dirname, 'kb-stores');
      pool.onStart(SERVICE, 'configure', [options]);
    } else {
      this.inline = new KbStores();
      this.inline.configure(options);
    }
    this.rerank = config.rerank ? new RerankClient(config.rerank) : undefined;
  }

  async onModuleInit(): Promise<void> {
    const root = resolveFromRoot(this.config.docsDir);
    if (!existsSync(root)) {
      this.logger.warn(`no documents folder at ${root} (DOCS_DIR): knowledge-base search has nothing to search`);
      return;
    }
    let built: BuiltDocs;
    if (this.inline) {
      built = await this.inline.build(root, false);
    } else {
      built = await this.pool.setup<BuiltDocs>(SERVICE, 'build', [root, true]);
      this.pool.onStart(SERVICE, 'rebuild', [root]);
      await this.pool.broadcast(SERVICE, 'open', [built.snapshot]);
      built.snapshot = undefined;
    }
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

  private async run(query: StoreQuery): Promise<StoreAnswer> {
    if (this.inline) return this.inline.search(query);
    return JSON.parse(await this.pool.run<string>(SERVICE, 'searchJson', [query])) as StoreAnswer;
  }
}
