import { EmbeddingClient, EmbeddingSettings } from '../../knowledge-network/embedded/embedding-client';
import { KnowledgeBase } from '../kb.types';
import { describeBases, KbStore, normalized, StoreAnswer, StoreQuery, StoreSnapshot } from './kb-store';
import { loadDocsFolder } from './docs-folder';

export interface KbStoresOptions {
  embedding?: EmbeddingSettings;
}

/** What the request thread learns about a documents folder one thread has indexed. */
export interface BuiltDocs {
  bases: KnowledgeBase[];
  passages: number;
  warnings: string[];
  /** Set when the embedding endpoint failed: the store serves keyword search only. */
  embeddingError?: string;
  buildMs: number;
  snapshot?: StoreSnapshot;
}

/**
 * The documents store one thread serves (the worker-pool service `kb`, beside the knowledge network's
 * `kn`): one worker builds it and hands back a snapshot every worker opens; with SEARCH_WORKERS=0 the
 * request thread builds and serves it itself.
 */
export class KbStores {
  private store?: KbStore;
  private embeddings?: EmbeddingClient;

  configure(options: KbStoresOptions): void {
    this.embeddings = options.embedding ? new EmbeddingClient(options.embedding) : undefined;
  }

  /** Loads, chunks and indexes the folder; serves it here, or returns its snapshot instead. */
  async build(root: string, snapshot: boolean): Promise<BuiltDocs> {
    const started = Date.now();
    const loaded = loadDocsFolder(root);
    const db = KbStore.build(loaded.bases);
    const built: BuiltDocs = {
      bases: describeBases(loaded.bases),
      passages: loaded.bases.reduce(
        (sum, base) => sum + base.documents.reduce((n, doc) => n + doc.passages.length, 0),
        0,
      ),
      warnings: loaded.warnings,
      buildMs: 0,
    };
    let vectors: Float32Array | undefined;
    let dimension = 0;
    if (this.embeddings && built.passages > 0) {
      try {
        const embedded = await this.embeddings.embed(KbStore.embeddingText(db));
        dimension = embedded[0].length;
        vectors = new Float32Array(embedded.length * dimension);
        embedded.forEach((vector, index) => vectors!.set(normalized(vector), index * dimension));
      } catch (error) {
        built.embeddingError = (error as Error).message;
      }
    }
    if (snapshot) {
      built.snapshot = { bytes: db.serialize(), vectors, dimension };
      db.close();
    } else {
      this.replace(KbStore.serve(db, vectors, dimension, this.embeddings));
    }
    built.buildMs = Date.now() - started;
    return built;
  }

  open(snapshot: StoreSnapshot): void {
    this.replace(KbStore.open(snapshot, this.embeddings));
  }

  /** How a replacement worker catches up. */
  async rebuild(root: string): Promise<void> {
    await this.build(root, false);
  }

  /** The answer as JSON text: a string crosses to the request thread far cheaper than an object graph. */
  async searchJson(query: StoreQuery): Promise<string> {
    return JSON.stringify(await this.search(query));
  }

  search(query: StoreQuery): Promise<StoreAnswer> {
    if (!this.store) return Promise.resolve({ results: [], total: 0 });
    return this.store.search(query);
  }

  close(): void {
    this.store?.close();
    this.store = undefined;
  }

  private replace(store: KbStore): void {
    this.store?.close();
    this.store = store;
  }
}

/** The worker-thread entry point (see common/workers/worker-main). */
export function createWorkerService(): KbStores {
  return new KbStores();
}
