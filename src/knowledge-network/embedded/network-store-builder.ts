import { KnSchema, RelationType } from '../knowledge-network.types';
import { ConceptIndex } from './concept-index';
import { EmbeddingClient } from '../../common/search/embedding-client';
import { Glossary } from './glossary';
import { NetworkSource } from './loaded-network';
import { NetworkIndex } from './network-index';
import { IndexedNetwork, NetworkStore } from './network-store';
import { operationsForType } from './property-types';
import { VectorIndex } from './vector-index';

export interface NetworkStoreOptions {
  /** Embeds concepts and text instances for hybrid search when given. */
  embeddings?: EmbeddingClient;
  /** Entries per result cache of the query runner; 0 turns the caches off. */
  queryCacheSize?: number;
  /** Builds into this new file instead of memory. */
  file?: string;
  /** Told what the build is doing, phase by phase (the index CLI prints it). */
  progress?: (message: string) => void;
}

/**
 * Indexes a loaded network (tables, edges, concepts, and vectors when embeddings are configured) and
 * returns the store that answers its queries; closes the database if anything fails.
 */
export async function buildNetworkStore(
  loaded: NetworkSource,
  options: NetworkStoreOptions = {},
): Promise<NetworkStore> {
  return new NetworkStore(await indexNetwork(loaded, options));
}

/** The filled index of a loaded network and the structures over it (see `buildNetworkStore`). */
export async function indexNetwork(loaded: NetworkSource, options: NetworkStoreOptions = {}): Promise<IndexedNetwork> {
  const index = new NetworkIndex(options.file ? { file: options.file, readOnly: false } : undefined);
  const progress = options.progress ?? ((): void => undefined);
  try {
    const schema = knSchema(loaded);
    index.addObjectTypes(loaded, progress);
    progress('relations');
    index.addEdges(loaded);
    progress('concepts');
    const concepts = new ConceptIndex(index);
    concepts.build(schema);
    const instanceCount = index.instanceCount();
    if (options.embeddings) progress('embeddings');
    const search = options.embeddings ? await addVectors(index, concepts, schema, options.embeddings) : {};
    return {
      schema,
      index,
      concepts,
      relations: relationNumbers(schema),
      instanceCount,
      glossary: new Glossary(loaded.glossary),
      queryCacheSize: options.queryCacheSize ?? 0,
      ...search,
    };
  } catch (error) {
    index.close();
    throw error;
  }
}

/** Relation type id → the type and its number in `edges.rt`: its position in the schema, as `addEdges` numbers them. */
export function relationNumbers(schema: KnSchema): Map<string, { type: RelationType; rt: number }> {
  return new Map(schema.relation_types.map((relation, rt) => [relation.id, { type: relation, rt }]));
}

function knSchema({ schema }: NetworkSource): KnSchema {
  return {
    id: schema.network.id,
    name: schema.network.name,
    comment: schema.network.comment,
    object_types: schema.objectTypes.map((entry) => entry.type),
    relation_types: schema.relationTypes.map((entry) => entry.type),
    action_types: schema.actionTypes.map((entry) => entry.type),
    concept_groups: schema.conceptGroups.map((entry) => entry.group),
    metric_types: schema.metricTypes.map((entry) => entry.metric),
  };
}

/** An unreachable embeddings endpoint leaves the network searchable by keyword (reported in /health). */
async function addVectors(
  index: NetworkIndex,
  concepts: ConceptIndex,
  schema: KnSchema,
  embeddings: EmbeddingClient,
): Promise<{ vectors?: VectorIndex; embeddingError?: string }> {
  const vectors = new VectorIndex(index, embeddings);
  try {
    await embedAll(index, concepts, vectors);
  } catch (error) {
    return { embeddingError: error instanceof Error ? error.message : String(error) };
  }
  for (const type of schema.object_types) {
    for (const property of type.data_properties) property.condition_operations = operationsForType(property.type, true);
  }
  return { vectors };
}

async function embedAll(index: NetworkIndex, concepts: ConceptIndex, vectors: VectorIndex): Promise<void> {
  await vectors.addConcepts(concepts.entries.map((entry) => ({ rowid: entry.rowid, text: entry.text })));
  for (const table of index.tables.values()) {
    if (table.textProperties.length === 0) continue;
    const rows = index.allRows(table);
    await vectors.addInstances(
      rows.map((row) => ({
        rowid: row._rowid as number,
        ot: table.index,
        text: table.textProperties.map((property) => row[table.column(property.name)!] ?? '').join(' '),
      })),
    );
  }
}
