import { KnSchema } from '../knowledge-network.types';
import { ConceptIndex } from './concept-index';
import { EmbeddingClient } from './embedding-client';
import { Glossary, GlossaryEntries } from './glossary';
import { NetworkIndex } from './network-index';
import { IndexedNetwork } from './network-store';
import { relationNumbers } from './network-store-builder';
import { VectorIndex } from './vector-index';

/**
 * A built network as plain data: its SQLite database serialized, plus what the query side keeps beside
 * it. Built once (on one worker thread), opened by every other worker without indexing again.
 */
export interface NetworkSnapshot {
  bytes: Uint8Array;
  schema: KnSchema;
  /** Object type id → the words `readCommonTerms` found in over half of its instances. */
  commonTerms: Record<string, string[]>;
  instanceCount: number;
  glossary: GlossaryEntries;
  /** Length of the stored vectors; 0 when the network has none (keyword-only). */
  vectorSize: number;
  embeddingError?: string;
}

export function snapshotOf(network: IndexedNetwork): NetworkSnapshot {
  const commonTerms: Record<string, string[]> = {};
  for (const [id, table] of network.index.tables) commonTerms[id] = [...table.commonTerms];
  return {
    bytes: network.index.serialize(),
    schema: network.schema,
    commonTerms,
    instanceCount: network.instanceCount,
    glossary: network.glossary.entries,
    vectorSize: network.vectors?.vectorSize ?? 0,
    embeddingError: network.embeddingError,
  };
}

/** The indexed network a snapshot was taken of, over this thread's own copy of its database. */
export function openSnapshot(
  snapshot: NetworkSnapshot,
  options: { embeddings?: EmbeddingClient; queryCacheSize: number },
): IndexedNetwork {
  const index = new NetworkIndex(snapshot.bytes);
  try {
    index.restoreObjectTypes(snapshot.schema.object_types, snapshot.commonTerms);
    const concepts = new ConceptIndex(index);
    concepts.describe(snapshot.schema);
    const vectors =
      snapshot.vectorSize > 0 && options.embeddings
        ? new VectorIndex(index, options.embeddings, snapshot.vectorSize)
        : undefined;
    return {
      schema: snapshot.schema,
      index,
      concepts,
      relations: relationNumbers(snapshot.schema),
      instanceCount: snapshot.instanceCount,
      glossary: new Glossary(snapshot.glossary),
      queryCacheSize: options.queryCacheSize,
      vectors,
      embeddingError: snapshot.embeddingError,
    };
  } catch (error) {
    index.close();
    throw error;
  }
}
