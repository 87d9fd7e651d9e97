import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { openDatabaseFile } from '../../common/sqlite/open-database';
import { indexKey, sourceHash } from '../../common/index-file/index-key';
import { KnowledgeBase } from '../kb.types';

/** Bumped whenever the layout of a documents index changes: a file of another version has another key. */
export const KB_INDEX_FORMAT_VERSION = 3;

/** Shared pages of a read-only index file; the OS keeps one copy for every thread and process. */
const MMAP_BYTES = 1 << 30;

/** What a documents index file holds besides its passages, in its `kb_index_meta` table. */
export interface KbIndexMeta {
  bases: KnowledgeBase[];
  passages: number;
  warnings: string[];
  embeddingError?: string;
  /** Length of each stored vector; 0 for a keyword-only index. */
  dimension: number;
  builtAt: string;
  buildMs: number;
}

/** An index file that is not one this build wrote for these documents: never served, rebuilt. */
export class ForeignKbIndexError extends Error {}

/**
 * The key a documents folder's index file is named by: the network index key of its content (every
 * file's path, length and bytes; the embedding model) under the documents layout's own version.
 */
export function kbIndexKey(folder: string, embedding: string | undefined): string {
  return createHash('sha256')
    .update(
      `agent-retrieval-kb-index\u0000${KB_INDEX_FORMAT_VERSION}\u0000${indexKey(sourceHash(folder), { embedding })}`,
    )
    .digest('hex');
}

/** Adds the metadata and the vectors (one blob, row-major) to a built store's database. */
export function writeKbIndex(
  db: Database.Database,
  key: string,
  meta: KbIndexMeta,
  vectors: Float32Array | undefined,
): void {
  db.exec(`CREATE TABLE kb_index_meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE kb_vectors(id INTEGER PRIMARY KEY, data BLOB NOT NULL);`);
  const insert = db.prepare('INSERT INTO kb_index_meta VALUES (?, ?)');
  insert.run('format_version', String(KB_INDEX_FORMAT_VERSION));
  insert.run('index_key', key);
  insert.run('documents', JSON.stringify(meta));
  if (vectors)
    db.prepare('INSERT INTO kb_vectors VALUES (1, ?)').run(
      Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength),
    );
}

/** An index file opened read-only and memory-mapped. */
export function openKbIndex(file: string): Database.Database {
  const db = openDatabaseFile(file, true);
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  db.pragma('query_only = ON');
  return db;
}

/** The metadata of an index file, provided this format wrote it for `key` (any key when undefined). */
export function readKbMeta(db: Database.Database, key?: string): KbIndexMeta {
  let rows: { name: string; value: string }[];
  try {
    rows = db.prepare('SELECT name, value FROM kb_index_meta').all() as { name: string; value: string }[];
  } catch {
    throw new ForeignKbIndexError('not a documents index');
  }
  const meta = new Map(rows.map((row) => [row.name, row.value]));
  if (meta.get('format_version') !== String(KB_INDEX_FORMAT_VERSION))
    throw new ForeignKbIndexError(`documents index format ${meta.get('format_version') ?? 'missing'}`);
  if (key !== undefined && meta.get('index_key') !== key)
    throw new ForeignKbIndexError('documents index built for other sources');
  return JSON.parse(meta.get('documents') ?? '{}') as KbIndexMeta;
}

/** The stored passage vectors, or undefined for a keyword-only index. */
export function readKbVectors(db: Database.Database): Float32Array | undefined {
  const row = db.prepare('SELECT data FROM kb_vectors WHERE id = 1').get() as { data: Buffer } | undefined;
  if (!row) return undefined;
  // A copy: the blob's bytes need not be aligned for a Float32Array view.
  const bytes = new Uint8Array(row.data);
  return new Float32Array(bytes.buffer, 0, bytes.byteLength / 4);
}
