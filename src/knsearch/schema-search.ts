import { Logger } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { MetricType, ObjectType, RelationType } from '../knowledge-network/knowledge-network.types';
import { ConceptRecall } from './concept-recall';
import { actionTypeShape, objectTypeShape, relationTypeShape } from './concept-shapes';
import { MAX_CONCEPTS } from './knsearch.limits';
import { SchemaSearchRequest, SchemaSearchResponse, SchemaSearchScope } from './knsearch.types';
import { normalizeConceptGroups } from './search-scope';

interface IncludedTypes {
  objects: boolean;
  relations: boolean;
  actions: boolean;
  metrics: boolean;
}

/** Which concept types a search_schema scope asks for (all four by default); none is a 400 as upstream. */
export function schemaSearchTypes(scope: SchemaSearchScope | undefined): IncludedTypes {
  const types = {
    objects: scope?.include_object_types !== false,
    relations: scope?.include_relation_types !== false,
    actions: scope?.include_action_types !== false,
    metrics: scope?.include_metric_types !== false,
  };
  if (!Object.values(types).some(Boolean)) {
    throw new AppException(ValidationErrors.Format, 'search_scope must enable at least one concept type');
  }
  return types;
}

/**
 * search_schema (upstream-contracts §2.2): kn_search's concept retrieval with `max_concepts` as top_k,
 * then relations cut to the budget, objects = the kept relations' endpoints (never cut) then the best of
 * the rest up to the budget, every recalled action, and metric types from direct plus expansion recall.
 */
export class SchemaSearch {
  private readonly logger = new Logger('SchemaSearch');
  private readonly concepts: ConceptRecall;

  constructor(private readonly kn: KnowledgeNetworkPort) {
    this.concepts = new ConceptRecall(kn);
  }

  async search(request: SchemaSearchRequest): Promise<SchemaSearchResponse> {
    const { kn_id: knId, query } = request;
    const types = schemaSearchTypes(request.search_scope);
    const budget = request.max_concepts ?? MAX_CONCEPTS.default;
    if (budget <= 0) throw new AppException(ValidationErrors.Range, 'max_concepts must be greater than 0');
    const brief = request.schema_brief === true;
    const groups = normalizeConceptGroups(request.search_scope?.concept_groups);
    const recalled = await this.concepts.recall(knId, query, budget, request.enable_rerank !== false, groups);
    const relations = types.relations ? recalled.relations.slice(0, budget) : [];
    const objects = types.objects ? selectObjects(recalled.objects, relations, budget) : [];
    const metrics = types.metrics ? await this.metrics(knId, query, budget, recalled.objects) : [];
    return {
      object_types: objects.map((type) => objectTypeShape(type, brief)),
      relation_types: relations.map((type) => relationTypeShape(type, brief)),
      action_types: types.actions ? recalled.actions.map((action) => actionTypeShape(action, recalled.schema)) : [],
      metric_types: metrics,
    };
  }

  /** Direct recall (a failure fails the search), then expansion over the recalled objects (a failure is logged). */
  private async metrics(knId: string, query: string, limit: number, objects: ObjectType[]): Promise<MetricType[]> {
    const direct = await this.kn.searchMetrics(knId, { query, limit });
    let expanded: MetricType[] = [];
    if (objects.length > 0) {
      try {
        expanded = await this.kn.searchMetrics(knId, { query, limit, object_type_ids: objects.map((type) => type.id) });
      } catch (error) {
        this.logger.warn(`metric expansion recall failed for ${knId}; direct recall only: ${String(error)}`);
      }
    }
    const seen = new Set<string>();
    return [...direct, ...expanded].filter((metric) => !seen.has(metric.id) && seen.add(metric.id)).slice(0, limit);
  }
}

/**
 * Endpoints of the kept relations first (source then target, in relation order, never cut), then the
 * recalled objects in their order until the budget is spent; without relations, the first `budget`.
 */
function selectObjects(recalled: ObjectType[], relations: RelationType[], budget: number): ObjectType[] {
  if (relations.length === 0) return recalled.slice(0, budget);
  const byId = new Map(recalled.map((type) => [type.id, type]));
  const endpointIds = [
    ...new Set(relations.flatMap((relation) => [relation.source_object_type_id, relation.target_object_type_id])),
  ];
  const endpoints = endpointIds.map((id) => byId.get(id)).filter((type): type is ObjectType => type !== undefined);
  const rest = recalled.filter((type) => !endpointIds.includes(type.id));
  return [...endpoints, ...rest.slice(0, Math.max(0, budget - endpoints.length))];
}
