import { AppException } from '../../common/errors/app.exception';
import { KnErrors } from '../knowledge-network.errors';
import {
  ActionQueryResult,
  ConceptHit,
  ConceptSearchRequest,
  InstanceIdentity,
  InstanceQuery,
  InstanceQueryResult,
  KnCondition,
  KnSchema,
  KnSummary,
  LogicPropertyRequest,
  LogicPropertyResult,
  RelationType,
  RelationTypePath,
  SubgraphOptions,
  SubgraphResult,
  TypedInstanceQuery,
} from '../knowledge-network.types';
import { ActionBinder } from './action-binder';
import { ConceptIndex } from './concept-index';
import { ConditionCompiler } from './condition-compiler';
import { Glossary } from './glossary';
import { HybridSearch, QueryVectors } from './hybrid-search';
import { IdentityLookup } from './identity-lookup';
import { InstanceQueryRunner } from './instance-query-runner';
import { logicParamsOf } from './logic-params';
import { LogicPropertyCalculator } from './logic-property-calculator';
import { NetworkIndex } from './network-index';
import { rowToInstance, rowValues } from './row-mapping';
import { SubgraphWalker } from './subgraph-walker';
import { VectorIndex } from './vector-index';

/** What buildNetworkStore produces: a network's filled index and the search structures over it. */
export interface IndexedNetwork {
  schema: KnSchema;
  index: NetworkIndex;
  concepts: ConceptIndex;
  /** relation type id → the type and its number in `edges.rt` */
  relations: Map<string, { type: RelationType; rt: number }>;
  instanceCount: number;
  /** Query expansion from the network's glossary (empty when it has none). */
  glossary: Glossary;
  queryCacheSize: number;
  /** Present when embeddings are configured and every concept and instance was embedded. */
  vectors?: VectorIndex;
  /** Why vectors are off although embeddings are configured. */
  embeddingError?: string;
  /** The vector channel's share of fused rankings, 0..1 (HYBRID_VECTOR_WEIGHT). */
  vectorWeight?: number;
}

/** The query side of one loaded network: answers every port call over its immutable index. */
export class NetworkStore {
  readonly schema: KnSchema;
  /** Keyword and vector search fused; false when embeddings are off or failed at load. */
  readonly hybridSearch: boolean;
  readonly embeddingError?: string;
  private readonly index: NetworkIndex;
  private readonly instanceCount: number;
  private readonly compiler = new ConditionCompiler();
  private readonly query: InstanceQueryRunner;
  private readonly hybrid: HybridSearch;
  private readonly walker: SubgraphWalker;
  private readonly binder: ActionBinder;
  private readonly calculator: LogicPropertyCalculator;

  constructor(network: IndexedNetwork) {
    const { schema, index, concepts, relations, vectors } = network;
    this.schema = schema;
    this.embeddingError = network.embeddingError;
    this.index = index;
    this.instanceCount = network.instanceCount;
    this.hybridSearch = vectors !== undefined;
    this.query = new InstanceQueryRunner(index, network.queryCacheSize, network.glossary);
    const lookup = new IdentityLookup(this.compiler, this.query);
    this.hybrid = new HybridSearch(concepts, this.query, network.glossary, vectors, network.vectorWeight);
    this.walker = new SubgraphWalker(index, relations, this.compiler, this.query);
    this.binder = new ActionBinder(lookup);
    this.calculator = new LogicPropertyCalculator(index, relations, lookup);
  }

  get id(): string {
    return this.schema.id;
  }

  summary(): KnSummary {
    return {
      id: this.schema.id,
      name: this.schema.name,
      comment: this.schema.comment,
      object_type_count: this.schema.object_types.length,
      relation_type_count: this.schema.relation_types.length,
      action_type_count: this.schema.action_types.length,
      instance_count: this.instanceCount,
    };
  }

  /**
   * Concept search (`queryVector`: the query's embedding, when the request thread got one; hybrid
   * networks only), without each concept's definition: the request thread holds the same schema and adds
   * them (withConceptDetails) rather than receive them again with every search (most of the answer's
   * bytes, and kn_search uses only the scores).
   */
  rankConcepts(request: ConceptSearchRequest, queryVector?: number[]): RankedConcept[] {
    const groups = this.groupFilter(request.concept_groups);
    const hits = this.hybrid.concepts(request.query, new Set(request.concept_types), queryVector);
    return hits
      .filter((hit) => !groups || this.inGroups(hit.entry.detail, hit.entry.concept_type, groups))
      .slice(0, request.limit)
      .map((hit) => ({
        concept_type: hit.entry.concept_type,
        id: hit.entry.id,
        name: hit.entry.name,
        score: hit.score,
        ...(hit.channels ? { score_channels: hit.channels } : {}),
      }));
  }

  /** `queryVectors`: the embeddings of the condition's search texts the request thread got (hybrid only). */
  queryInstances(otId: string, request: InstanceQuery, queryVectors?: QueryVectors): InstanceQueryResult {
    const table = this.objectTable(otId);
    const context = this.hybrid.context(request.condition as KnCondition | undefined, table, queryVectors);
    // A match ranks at most 20 candidates per requested row (1,000..10,000), so common words stay cheap.
    const matchCandidates = Math.min(10000, Math.max(1000, request.limit * 20));
    const compiled = this.compiler.compile(request.condition, table, {
      ...context,
      matchCandidates,
      rankedLimit: request.limit,
    });
    if (request.include_logic_params !== true) {
      const datas = this.query.instances(table, compiled, request.limit, request.properties, request.shortlist);
      // A shortlisting caller ranks instances of a type it already holds: the type (~2 KB) is not sent.
      return request.shortlist ? { datas } : { datas, object_type: table.type };
    }
    const datas = this.query.rows(table, compiled, request.limit).map((row) => ({
      ...rowToInstance(table, row, request.properties),
      ...logicParamsOf(table.type, rowValues(table, row)),
    }));
    return { datas, object_type: table.type };
  }

  /** Several types' queries in one call (one worker trip for a kn_search's instance recall), in order. */
  queryInstanceBatch(queries: TypedInstanceQuery[], queryVectors?: QueryVectors): InstanceQueryResult[] {
    return queries.map(({ otId, query }) => this.queryInstances(otId, query, queryVectors));
  }

  querySubgraph(paths: RelationTypePath[], options: SubgraphOptions = {}): SubgraphResult {
    const entries = paths.map((path, i) => this.walker.walk(path, `relation_type_paths[${i}]`));
    if (options.include_logic_params === true) {
      for (const object of entries.flatMap((entry) => Object.values(entry.objects))) {
        const type = this.index.table(object.object_type_id)?.type;
        if (type) Object.assign(object.properties, logicParamsOf(type, object.properties));
      }
    }
    return { entries };
  }

  queryActions(atId: string, identities: InstanceIdentity[]): ActionQueryResult {
    const action = this.schema.action_types.find((type) => type.id === atId);
    if (!action)
      throw new AppException(
        KnErrors.ActionTypeNotFound,
        `action type "${atId}" not found in knowledge network "${this.id}"`,
      );
    return this.binder.bind(action, this.objectTable(action.object_type_id), identities);
  }

  resolveLogicProperties(otId: string, request: LogicPropertyRequest): LogicPropertyResult {
    return this.calculator.resolve(this.objectTable(otId), request);
  }

  /** See NetworkIndex.releaseMappedPages. */
  releaseMappedPages(): void {
    this.index.releaseMappedPages();
  }

  close(): void {
    this.index.close();
  }

  private objectTable(otId: string) {
    const table = this.index.table(otId);
    if (!table)
      throw new AppException(
        KnErrors.ObjectTypeNotFound,
        `object type "${otId}" not found in knowledge network "${this.id}"`,
      );
    return table;
  }

  private groupFilter(groups: string[] | undefined): Set<string> | undefined {
    const wanted = [...new Set((groups ?? []).map((group) => group.trim()).filter((group) => group !== ''))];
    if (wanted.length === 0) return undefined;
    const objectIds = new Set<string>();
    for (const id of wanted) {
      const group = this.schema.concept_groups.find((entry) => entry.id === id);
      if (!group)
        throw new AppException(
          KnErrors.ConceptGroupNotFound,
          `concept group "${id}" not found in knowledge network "${this.id}"`,
        );
      group.object_type_ids.forEach((otId) => objectIds.add(otId));
    }
    return objectIds;
  }

  private inGroups(detail: ConceptHit['detail'], kind: string, objectIds: Set<string>): boolean {
    if (kind === 'object_type') return objectIds.has(detail.id);
    if (kind === 'action_type') return objectIds.has((detail as { object_type_id: string }).object_type_id);
    const relation = detail as RelationType;
    return objectIds.has(relation.source_object_type_id) && objectIds.has(relation.target_object_type_id);
  }
}

/** A concept search hit as a worker sends it: ConceptHit without `detail`. */
export type RankedConcept = Omit<ConceptHit, 'detail'>;

const DEFINITIONS = new WeakMap<KnSchema, Map<string, ConceptHit['detail']>>();

/**
 * Ranked concepts with their definitions from `schema`, in ConceptHit's field order. A concept the schema
 * does not define (ranked by a newer index while a reload swapped it in) is left out: an answer holds
 * only what the schema it is given with has.
 */
export function withConceptDetails(schema: KnSchema, ranked: readonly RankedConcept[]): ConceptHit[] {
  let definitions = DEFINITIONS.get(schema);
  if (!definitions) {
    definitions = new Map<string, ConceptHit['detail']>([
      ...schema.object_types.map((type) => [`object_type:${type.id}`, type] as const),
      ...schema.relation_types.map((type) => [`relation_type:${type.id}`, type] as const),
      ...schema.action_types.map((type) => [`action_type:${type.id}`, type] as const),
    ]);
    DEFINITIONS.set(schema, definitions);
  }
  return ranked.flatMap(({ score_channels: channels, ...hit }) => {
    const detail = definitions.get(`${hit.concept_type}:${hit.id}`);
    return detail ? [{ ...hit, detail, ...(channels ? { score_channels: channels } : {}) }] : [];
  });
}
