import { PreparedStore, ThreadStores } from '../../common/search/thread-stores';
import { workerService } from '../../common/workers/worker-service';
import { EmbeddingClient, EmbeddingSettings } from '../../common/search/embedding-client';
import { KnowledgeBase } from '../kb.types';
import { describeBases, KbStore, normalized, StoreSnapshot } from './kb-store';
import { loadDocsFolder } from './docs-folder';

export interface KbStoresOptions {
  embedding?: EmbeddingSettings;
}

/** The one documents store is served under this id (DOCS_DIR holds every knowledge base). */
export const DOCUMENTS_ID = 'documents';

/** What a request may ask of the documents store. */
export type KbQueries = Pick<KbStore, 'search'>;

/** What the request thread learns about a documents folder one thread has indexed. */
export interface BuiltDocs {
  id: string;
  bases: KnowledgeBase[];
  passages: number;
  warnings: string[];
  /** Set when the embedding endpoint failed: the store serves keyword search only. */
  embeddingError?: string;
  buildMs: number;
  snapshot?: StoreSnapshot;
}

/**
 * The documents store one thread serves (see ThreadStores; the worker-pool service `kb`, beside the
 * knowledge networks' `kn`): DOCS_DIR is loaded, chunked and indexed into one store.
 */
export class KbStores extends ThreadStores<KbQueries, KbStoresOptions, BuiltDocs, StoreSnapshot> {
  private embeddings?: EmbeddingClient;

  constructor() {
    super(['search']);
  }

  configure(options: KbStoresOptions): void {
    this.embeddings = options.embedding ? new EmbeddingClient(options.embedding) : undefined;
  }

  /** Loads, chunks and indexes the folder. */
  protected async prepare(root: string): Promise<PreparedStore<BuiltDocs, StoreSnapshot, KbStore>> {
    const started = Date.now();
    const loaded = loadDocsFolder(root);
    const db = KbStore.build(loaded.bases);
    const built: BuiltDocs = {
      id: DOCUMENTS_ID,
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
    built.buildMs = Date.now() - started;
    return {
      built,
      snapshot: () => {
        const bytes = db.serialize();
        db.close();
        return { bytes, vectors, dimension };
      },
      store: () => KbStore.serve(db, vectors, dimension, this.embeddings),
    };
  }

  protected openSnapshot(snapshot: StoreSnapshot): { id: string; store: KbStore } {
    return { id: DOCUMENTS_ID, store: KbStore.open(snapshot, this.embeddings) };
  }
}

/** The worker-thread entry point (see common/workers/worker-main). */
export function createWorkerService(): KbStores {
  return new KbStores();
}

/** The documents store as a worker-pool service. */
export const KB_STORES = workerService<KbStores>('kb', __dirname, 'kb-stores');
