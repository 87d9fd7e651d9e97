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
  SubgraphResult,
} from '../knowledge-network.types';
import { ActionBinder } from './action-binder';
import { ConceptIndex } from './concept-index';
import { ConditionCompiler } from './condition-compiler';
import { EmbeddingClient } from './embedding-client';
import { IdentityLookup } from './identity-lookup';
import { InstanceQueryRunner } from './instance-query-runner';
import { LoadedNetwork } from './loaded-network';
import { LogicPropertyCalculator } from './logic-property-calculator';
import { NetworkIndex } from './network-index';
import { operationsForType } from './property-types';
import { SubgraphWalker } from './subgraph-walker';
import { VectorIndex } from './vector-index';
import { HybridSearch } from './hybrid-search';

/** One loaded network: its SQLite index and the query parts built on it. */
export class NetworkStore {
  readonly schema: KnSchema;
  private readonly index = new NetworkIndex();
  private readonly concepts: ConceptIndex;
  private readonly compiler = new ConditionCompiler();
  private readonly query: InstanceQueryRunner;
  private readonly relations = new Map<string, { type: RelationType; rt: number }>();
  private vectors?: VectorIndex;
  private hybrid!: HybridSearch;
  private walker!: SubgraphWalker;
  private binder!: ActionBinder;
  private calculator!: LogicPropertyCalculator;
  private instanceTotal = 0;
  /** Why vectors are off although embeddings are configured. */
  embeddingError?: string;

  private constructor(
    private readonly loaded: LoadedNetwork,
    queryCacheSize: number,
  ) {
    const { schema } = loaded;
    this.schema = {
      id: schema.network.id,
      name: schema.network.name,
      comment: schema.network.comment,
      object_types: schema.objectTypes.map((entry) => entry.type),
      relation_types: schema.relationTypes.map((entry) => entry.type),
      action_types: schema.actionTypes.map((entry) => entry.type),
      concept_groups: schema.conceptGroups.map((entry) => entry.group),
    };
    this.concepts = new ConceptIndex(this.index);
    this.query = new InstanceQueryRunner(this.index, queryCacheSize);
  }

  /** Builds the index (and embeddings when a client is given); closes the database if anything fails. */
  static async build(
    loaded: LoadedNetwork,
    options: { embeddings?: EmbeddingClient; queryCacheSize?: number } = {},
  ): Promise<NetworkStore> {
    const { embeddings, queryCacheSize = 0 } = options;
    const store = new NetworkStore(loaded, queryCacheSize);
    try {
      await store.populate(embeddings);
      return store;
    } catch (error) {
      store.close();
      throw error;
    }
  }

  get id(): string {
    return this.schema.id;
  }

  get hybridSearch(): boolean {
    return this.vectors !== undefined;
  }

  summary(): KnSummary {
    return {
      id: this.schema.id,
      name: this.schema.name,
      comment: this.schema.comment,
      object_type_count: this.schema.object_types.length,
      relation_type_count: this.schema.relation_types.length,
      action_type_count: this.schema.action_types.length,
      instance_count: this.instanceTotal,
    };
  }

  async searchConcepts(request: ConceptSearchRequest): Promise<ConceptHit[]> {
    const groups = this.groupFilter(request.concept_groups);
    const hits = await this.hybrid.concepts(request.query, new Set(request.concept_types));
    return hits
      .filter((hit) => !groups || this.inGroups(hit.entry.detail, hit.entry.concept_type, groups))
      .slice(0, request.limit)
      .map((hit) => ({
        concept_type: hit.entry.concept_type,
        id: hit.entry.id,
        name: hit.entry.name,
        score: hit.score,
        detail: hit.entry.detail,
      }));
  }

  async queryInstances(otId: string, request: InstanceQuery): Promise<InstanceQueryResult> {
    const table = this.objectTable(otId);
    const context = await this.hybrid.context(request.condition as KnCondition | undefined, table);
    // A match ranks at most 20 candidates per requested row (1,000..10,000), so common words stay cheap.
    const matchCandidates = Math.min(10000, Math.max(1000, request.limit * 20));
    const compiled = this.compiler.compile(request.condition, table, { ...context, matchCandidates });
    return {
      datas: this.query.instances(table, compiled, request.limit, request.properties),
      object_type: table.type,
    };
  }

  querySubgraph(paths: RelationTypePath[]): SubgraphResult {
    return { entries: paths.map((path, i) => this.walker.walk(path, `relation_type_paths[${i}]`)) };
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

  private async populate(embeddings?: EmbeddingClient): Promise<void> {
    this.index.addObjectTypes(this.loaded);
    const numbers = this.index.addEdges(this.loaded);
    for (const relation of this.schema.relation_types) {
      this.relations.set(relation.id, { type: relation, rt: numbers.get(relation.id)! });
    }
    this.concepts.build(this.schema);
    this.instanceTotal = this.index.instanceCount();
    if (embeddings) await this.addVectors(embeddings);
    const lookup = new IdentityLookup(this.compiler, this.query);
    this.hybrid = new HybridSearch(this.concepts, this.query, this.vectors);
    this.walker = new SubgraphWalker(this.index, this.relations, this.compiler, this.query);
    this.binder = new ActionBinder(lookup);
    this.calculator = new LogicPropertyCalculator(this.index, this.relations, lookup);
  }

  /** An unreachable embeddings endpoint leaves the network searchable by keyword (reported in /health). */
  private async addVectors(embeddings: EmbeddingClient): Promise<void> {
    const vectors = new VectorIndex(this.index, embeddings);
    try {
      await this.embedAll(vectors);
    } catch (error) {
      this.embeddingError = error instanceof Error ? error.message : String(error);
      return;
    }
    this.vectors = vectors;
    for (const type of this.schema.object_types) {
      for (const property of type.data_properties)
        property.condition_operations = operationsForType(property.type, true);
    }
  }

  private async embedAll(vectors: VectorIndex): Promise<void> {
    await vectors.addConcepts(
      this.concepts.entries.map((entry) => ({ rowid: entry.rowid, text: entry.text })),
    );
    for (const table of this.index.tables.values()) {
      if (table.textProperties.length === 0) continue;
      const rows = this.index.allRows(table);
      await vectors.addInstances(
        rows.map((row) => ({
          rowid: row._rowid as number,
          ot: table.index,
          text: table.textProperties
            .map((property) => row[table.column(property.name)!] ?? '')
            .join(' '),
        })),
      );
    }
  }

  private groupFilter(groups: string[] | undefined): Set<string> | undefined {
    const wanted = [
      ...new Set((groups ?? []).map((group) => group.trim()).filter((group) => group !== '')),
    ];
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
    if (kind === 'action_type')
      return objectIds.has((detail as { object_type_id: string }).object_type_id);
    const relation = detail as RelationType;
    return (
      objectIds.has(relation.source_object_type_id) && objectIds.has(relation.target_object_type_id)
    );
  }
}
