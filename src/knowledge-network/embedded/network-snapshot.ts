import { KnSchema } from '../knowledge-network.types';
import { ConceptIndex } from './concept-index';
import { EmbeddingClient } from '../../common/search/embedding-client';
import { INDEX_FORMAT_VERSION } from '../../common/index-file/index-key';
import { Glossary, GlossaryEntries } from './glossary';
import { NetworkIndex } from './network-index';
import { IndexedNetwork } from './network-store';
import { relationNumbers } from './network-store-builder';
import { VectorIndex } from './vector-index';

/** What the query side keeps beside a network's tables; stored in the index file's `index_meta` table. */
export interface NetworkMeta {
  schema: KnSchema;
  /** Object type id → the words `readCommonTerms` found in over half of its instances. */
  commonTerms: Record<string, string[]>;
  instanceCount: number;
  glossary: GlossaryEntries;
  /** Length of the stored vectors; 0 when the network has none (keyword-only). */
  vectorSize: number;
  embeddingError?: string;
  warnings: string[];
  missingColumns: string[];
}

/**
 * A built network other threads can open without indexing again: an index file (opened read-only,
 * memory-mapped), or, when INDEX_DIR cannot hold files, its database serialized with the metadata beside it.
 */
export type NetworkSnapshot = { file: string } | { bytes: Uint8Array; meta: NetworkMeta };

/** An index file that is not one this build wrote for these sources: never served, rebuilt. */
export class ForeignIndexError extends Error {}

export function metaOf(network: IndexedNetwork, loaded: { warnings: string[]; missingColumns: string[] }): NetworkMeta {
  const commonTerms: Record<string, string[]> = {};
  for (const [id, table] of network.index.tables) commonTerms[id] = [...table.commonTerms];
  return {
    schema: network.schema,
    commonTerms,
    instanceCount: network.instanceCount,
    glossary: network.glossary.entries,
    vectorSize: network.vectors?.vectorSize ?? 0,
    embeddingError: network.embeddingError,
    warnings: loaded.warnings,
    missingColumns: loaded.missingColumns,
  };
}

/** The meta rows of an index file: the format version and key it was built for, then the metadata as JSON. */
export function encodeMeta(meta: NetworkMeta, key: string): Record<string, string> {
  return { format_version: String(INDEX_FORMAT_VERSION), index_key: key, network: JSON.stringify(meta) };
}

/** The metadata of an index file, provided it was written by this format for `key`. */
export function decodeMeta(rows: Record<string, string>, key: string): NetworkMeta {
  if (rows.format_version !== String(INDEX_FORMAT_VERSION))
    throw new ForeignIndexError(`index format ${rows.format_version ?? 'missing'}, expected ${INDEX_FORMAT_VERSION}`);
  if (rows.index_key !== key) throw new ForeignIndexError('index built for other sources');
  return JSON.parse(rows.network) as NetworkMeta;
}

/** Opens a snapshot on this thread: the file itself (shared pages), or this thread's own copy of the bytes. */
export function openSnapshot(
  snapshot: NetworkSnapshot,
  options: { embeddings?: EmbeddingClient; queryCacheSize: number; mapped?: boolean },
): IndexedNetwork {
  const fromFile = 'file' in snapshot;
  const index = fromFile
    ? new NetworkIndex({ file: snapshot.file, readOnly: true, mapped: options.mapped })
    : new NetworkIndex(snapshot.bytes);
  try {
    const meta = fromFile ? (JSON.parse(index.readMeta().network) as NetworkMeta) : snapshot.meta;
    return restore(index, meta, options);
  } catch (error) {
    index.close();
    throw error;
  }
}

/** The indexed network over an opened database and its metadata. */
export function restore(
  index: NetworkIndex,
  meta: NetworkMeta,
  options: { embeddings?: EmbeddingClient; queryCacheSize: number },
): IndexedNetwork {
  index.restoreObjectTypes(meta.schema.object_types, meta.commonTerms);
  const concepts = new ConceptIndex(index);
  concepts.describe(meta.schema);
  const vectors =
    meta.vectorSize > 0 && options.embeddings ? new VectorIndex(index, options.embeddings, meta.vectorSize) : undefined;
  return {
    schema: meta.schema,
    index,
    concepts,
    relations: relationNumbers(meta.schema),
    instanceCount: meta.instanceCount,
    glossary: new Glossary(meta.glossary ?? {}),
    queryCacheSize: options.queryCacheSize,
    vectors,
    embeddingError: meta.embeddingError,
  };
}
