import { PreparedStore, ThreadStores } from '../../common/search/thread-stores';
import { workerService } from '../../common/workers/worker-service';
import { EmbeddingClient, EmbeddingSettings } from '../../common/search/embedding-client';
import { KnowledgeBase } from '../kb.types';
import type Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import type { IndexInfo } from '../../common/index-file/index-directory';
import type { IndexVerify } from '../../config/kn.config';
import { IndexDirectory } from '../../common/index-file/index-directory';
import { kbIndexKey, KbIndexMeta, openKbIndex, readKbMeta, writeKbIndex } from './kb-index-file';
import { describeBases, KbStore, normalized, StoreSnapshot } from './kb-store';
import { loadDocsFolder } from './docs-folder';

export interface KbStoresOptions {
  embedding?: EmbeddingSettings;
  /** INDEX_DIR when it can hold index files; absent: the documents are indexed in memory. */
  index?: { dir: string; readOnly: boolean; verify?: IndexVerify };
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
  index: IndexInfo;
  snapshot?: StoreSnapshot;
}

/** A documents folder indexed in memory: the database, its vectors, and what to report. */
interface IndexedDocs {
  db: Database.Database;
  vectors?: Float32Array;
  meta: KbIndexMeta;
}

/**
 * The documents store one thread serves (see ThreadStores; the worker-pool service `kb`, beside the
 * knowledge networks' `kn`): DOCS_DIR is loaded, chunked and indexed into one store, kept as an index
 * file in INDEX_DIR keyed by the documents' content, so a later start opens it instead.
 */
export class KbStores extends ThreadStores<KbQueries, KbStoresOptions, BuiltDocs, StoreSnapshot> {
  private options: KbStoresOptions = {};
  private embeddings?: EmbeddingClient;

  constructor() {
    super(['search']);
  }

  configure(options: KbStoresOptions): void {
    this.options = options;
    this.embeddings = options.embedding ? new EmbeddingClient(options.embedding) : undefined;
  }

  protected async prepare(root: string): Promise<PreparedStore<BuiltDocs, StoreSnapshot, KbStore>> {
    const started = Date.now();
    const embedding = this.options.embedding;
    const key = kbIndexKey(root, embedding ? `${embedding.url} ${embedding.model}` : undefined);
    const index = this.options.index;
    if (!index) return this.inMemory(await this.index(root), key);
    const directory = new IndexDirectory(index.dir, index.readOnly, index.verify);
    const file = directory.fileFor(root, key);
    const check = directory.check(file, key);
    const existing = check.valid ? existingMeta(file, key) : undefined;
    if (check.valid && !existing) directory.refuse(file, 'its content is not an index of these documents');
    if (existing && !(existing.embeddingError && this.embeddings && !directory.readOnly))
      return this.fromFile(file, key, existing, true);
    if (directory.readOnly) {
      const reason = check.valid ? 'the file is not a usable index of these documents' : check.reason;
      throw new Error(`no usable index for DOCS_DIR in INDEX_DIR (${reason}); INDEX_READ_ONLY forbids building`);
    }
    const meta = await directory.publish(root, key, async (temporary) => {
      const indexed = await this.index(root);
      try {
        indexed.meta.buildMs = Date.now() - started;
        writeKbIndex(indexed.db, key, indexed.meta, indexed.vectors);
        writeFileSync(temporary, indexed.db.serialize());
        return indexed.meta;
      } finally {
        indexed.db.close();
      }
    });
    directory.removeOthers(root, file);
    return this.fromFile(file, key, meta, false);
  }

  protected openSnapshot(snapshot: StoreSnapshot): { id: string; store: KbStore } {
    return { id: DOCUMENTS_ID, store: KbStore.open(snapshot, this.embeddings) };
  }

  /** Loads, chunks and indexes the folder in memory, with a vector per passage when embeddings work. */
  private async index(root: string): Promise<IndexedDocs> {
    const started = Date.now();
    const loaded = loadDocsFolder(root);
    const db = KbStore.build(loaded.bases);
    const meta: KbIndexMeta = {
      bases: describeBases(loaded.bases),
      passages: loaded.bases.reduce(
        (sum, base) => sum + base.documents.reduce((n, doc) => n + doc.passages.length, 0),
        0,
      ),
      warnings: loaded.warnings,
      dimension: 0,
      builtAt: new Date().toISOString(),
      buildMs: 0,
    };
    let vectors: Float32Array | undefined;
    if (this.embeddings && meta.passages > 0) {
      try {
        const embedded = await this.embeddings.embed(KbStore.embeddingText(db));
        const dimension = embedded[0].length;
        vectors = new Float32Array(embedded.length * dimension);
        embedded.forEach((vector, index) => vectors!.set(normalized(vector), index * dimension));
        meta.dimension = dimension;
      } catch (error) {
        meta.embeddingError = (error as Error).message;
      }
    }
    meta.buildMs = Date.now() - started;
    return { db, vectors, meta };
  }

  private inMemory(indexed: IndexedDocs, key: string): PreparedStore<BuiltDocs, StoreSnapshot, KbStore> {
    const { db, vectors, meta } = indexed;
    return {
      built: builtDocs(meta, {
        hash: key.slice(0, 32),
        storage: 'memory',
        builtAt: meta.builtAt,
        buildMs: meta.buildMs,
        reused: false,
      }),
      snapshot: () => {
        const bytes = db.serialize();
        db.close();
        return { bytes, vectors, dimension: meta.dimension };
      },
      store: () => KbStore.serve(db, vectors, meta.dimension, this.embeddings),
    };
  }

  private fromFile(
    file: string,
    key: string,
    meta: KbIndexMeta,
    reused: boolean,
  ): PreparedStore<BuiltDocs, StoreSnapshot, KbStore> {
    const info: IndexInfo = {
      hash: key.slice(0, 32),
      storage: 'file',
      file,
      builtAt: meta.builtAt,
      buildMs: meta.buildMs,
      reused,
    };
    return {
      built: builtDocs(meta, info),
      snapshot: () => ({ file }),
      store: () => KbStore.open({ file }, this.embeddings),
    };
  }
}

function builtDocs(meta: KbIndexMeta, index: IndexInfo): BuiltDocs {
  const { bases, passages, warnings, embeddingError, buildMs } = meta;
  return { id: DOCUMENTS_ID, bases, passages, warnings, embeddingError, buildMs: index.reused ? 0 : buildMs, index };
}

/** The metadata of an intact index file, or undefined when it is not one this service wrote for `key`. */
function existingMeta(file: string, key: string): KbIndexMeta | undefined {
  let db: Database.Database | undefined;
  try {
    db = openKbIndex(file);
    return readKbMeta(db, key);
  } catch {
    // An unreadable or foreign file with a matching sidecar (copied, or edited in place): rebuilt.
    return undefined;
  } finally {
    db?.close();
  }
}

/** The worker-thread entry point (see common/workers/worker-main). */
export function createWorkerService(): KbStores {
  return new KbStores();
}

/** The documents store as a worker-pool service. */
export const KB_STORES = workerService<KbStores>('kb', __dirname, 'kb-stores');
