import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { requiredDetails } from '../common/http/required-text';
import { InputLimits, requireIdentifier } from '../common/limits/input-limits';
import { KnErrors } from '../knowledge-network/knowledge-network.errors';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { KnSummary } from '../knowledge-network/knowledge-network.types';
import type { KnDetail } from './knsearch.types';
import { actionTypeShape, objectTypeShape, relationTypeShape } from './concept-shapes';
import { ConceptRecall } from './concept-recall';
import { InstanceRecall } from './instance-recall';
import { INSTANCE_LIMIT, MAX_CONCEPTS } from './knsearch.limits';
import {
  KnSearchRequest,
  KnSearchResponse,
  QueryInstanceSubgraphRequest,
  QueryInstanceSubgraphResponse,
  QueryObjectInstanceRequest,
  QueryObjectInstanceResponse,
  ResolveLogicPropertiesRequest,
  ResolveLogicPropertiesResponse,
  SchemaSearchRequest,
  SchemaSearchResponse,
  SemanticSearchRequest,
  SemanticSearchResponse,
} from './knsearch.types';
import { retrievalSettings } from './retrieval-config';
import { SchemaSearch } from './schema-search';
import { normalizeConceptGroups, scopeConceptTypes } from './search-scope';

export const NO_OBJECT_TYPES = '没有可检索的对象类型';
export const NO_INSTANCES = '未检索到符合条件的实例数据';
export const NO_CONCEPTS = '未召回到相关概念，无法进行实例检索';

/** `GET /kn/full_ontology_building_status`: running while any of the latest 50 full builds is. */
export interface OntologyBuildStatus {
  kn_id: string;
  state: 'running' | 'completed';
  state_detail: string;
}

const BUILD_JOBS_SHOWN = 50;

/** One method per /kn route; REST controllers, MCP tools and chat tools all call these. */
@Injectable()
export class KnSearchService {
  private readonly concepts: ConceptRecall;
  private readonly instances: InstanceRecall;
  private readonly schemaSearch: SchemaSearch;

  constructor(
    readonly kn: KnowledgeNetworkPort,
    private readonly limits: InputLimits,
  ) {
    this.concepts = new ConceptRecall(kn);
    this.instances = new InstanceRecall(kn);
    this.schemaSearch = new SchemaSearch(kn);
  }

  listNetworks(): Promise<KnSummary[]> {
    return this.kn.listNetworks();
  }

  /**
   * One network for discovery (`get_kn_detail`): counts, concept groups and its types — brief (ids,
   * names, endpoints) by default, every field with `brief: false`. An unknown kn_id is the usual 404.
   */
  async networkDetail(knId: string, brief: boolean): Promise<KnDetail> {
    const schema = await this.kn.exportSchema(knId);
    const metrics = schema.metric_types ?? [];
    return {
      id: schema.id,
      name: schema.name,
      ...(schema.comment ? { comment: schema.comment } : {}),
      counts: {
        object_types: schema.object_types.length,
        relation_types: schema.relation_types.length,
        action_types: schema.action_types.length,
        metric_types: metrics.length,
      },
      concept_groups: schema.concept_groups,
      object_types: brief
        ? schema.object_types.map(({ id, name, comment }) => ({ id, name, ...(comment ? { comment } : {}) }))
        : schema.object_types,
      relation_types: brief
        ? schema.relation_types.map(({ id, name, source_object_type_id, target_object_type_id }) => ({
            id,
            name,
            source_object_type_id,
            target_object_type_id,
          }))
        : schema.relation_types,
      action_types: brief
        ? schema.action_types.map(({ id, name, object_type_id }) => ({ id, name, object_type_id }))
        : schema.action_types,
      metric_types: brief
        ? metrics.map(({ id, name, scope_type, scope_ref }) => ({ id, name, scope_type, scope_ref }))
        : metrics,
    };
  }

  buildOntology(knId: string, name: string): Promise<{ id: string }> {
    this.limits.text('name', name);
    return this.kn.createOntologyBuildJob(knId, name);
  }

  async ontologyBuildStatus(knId: string): Promise<OntologyBuildStatus> {
    const jobs = await this.kn.listOntologyBuildJobs(knId);
    const running = jobs.slice(0, BUILD_JOBS_SHOWN).some((job) => job.state === 'running');
    return running
      ? { kn_id: knId, state: 'running', state_detail: 'Some jobs are still running' }
      : { kn_id: knId, state: 'completed', state_detail: `All latest ${BUILD_JOBS_SHOWN} jobs are completed` };
  }

  /** search_schema (upstream HEAD): object, relation, action and metric types for a question. */
  searchSchema(request: SchemaSearchRequest): Promise<SchemaSearchResponse> {
    this.limits.searchText('query', request.query);
    return this.schemaSearch.search(request);
  }

  async knSearch(request: KnSearchRequest): Promise<KnSearchResponse> {
    const { kn_id: knId, query } = request;
    this.limits.searchText('query', query);
    const settings = retrievalSettings(request.retrieval_config);
    const types = scopeConceptTypes(request.search_scope);
    const groups = normalizeConceptGroups(request.search_scope?.concept_groups);
    const recalled = await this.concepts.recall(knId, query, settings.topK, request.enable_rerank !== false, groups);
    const withChannels = (kind: string, id: string, shape: Record<string, unknown>): Record<string, unknown> => {
      const channels = recalled.channels.get(`${kind}:${id}`);
      return channels ? { ...shape, _score_channels: channels } : shape;
    };
    const response: KnSearchResponse = {
      object_types: types.has('object_type')
        ? recalled.objects.map((type) => withChannels('object_type', type.id, objectTypeShape(type)))
        : [],
      relation_types: types.has('relation_type')
        ? recalled.relations.map((type) => withChannels('relation_type', type.id, relationTypeShape(type)))
        : [],
      action_types: types.has('action_type')
        ? recalled.actions.map((action) =>
            withChannels('action_type', action.id, actionTypeShape(action, recalled.schema)),
          )
        : [],
    };
    if (request.only_schema === true) return response;
    response.nodes = [];
    const searchable = recalled.objects.filter((type) => this.instances.fields(type).length > 0);
    if (recalled.objects.length + recalled.relations.length + recalled.actions.length === 0) {
      response.message = NO_CONCEPTS;
    } else if (searchable.length === 0) {
      response.message = NO_OBJECT_TYPES;
    } else {
      response.nodes = await this.instances.recall(knId, query, searchable, settings, recalled.objectScores);
      if (response.nodes.length === 0) response.message = NO_INSTANCES;
    }
    return response;
  }

  async semanticSearch(request: SemanticSearchRequest): Promise<SemanticSearchResponse> {
    const { kn_id: knId, query } = request;
    this.limits.searchText('query', query);
    const limit = request.max_concepts ?? MAX_CONCEPTS.default;
    const hits = await this.kn.searchConcepts(knId, {
      query,
      concept_types: [...scopeConceptTypes(request.search_scope)],
      limit,
      concept_groups: normalizeConceptGroups(request.search_scope?.concept_groups),
    });
    return {
      concepts: hits.map((hit) => ({
        concept_type: hit.concept_type,
        concept_id: hit.id,
        concept_name: hit.name,
        concept_detail: hit.detail,
        ...(hit.score_channels ? { _score_channels: hit.score_channels } : {}),
      })),
    };
  }

  async queryObjectInstance(request: QueryObjectInstanceRequest): Promise<QueryObjectInstanceResponse> {
    const knId = request.kn_id;
    const otId = requireIdentifier('ot_id', request.ot_id);
    const limit = request.limit ?? INSTANCE_LIMIT.default;
    this.limits.condition('condition', request.condition);
    const { datas } = await this.kn.queryInstances(knId, otId, {
      condition: request.condition,
      limit,
      properties: request.properties,
      include_logic_params: request.include_logic_params,
    });
    return { datas };
  }

  async queryInstanceSubgraph(request: QueryInstanceSubgraphRequest): Promise<QueryInstanceSubgraphResponse> {
    const knId = request.kn_id;
    if (!Array.isArray(request.relation_type_paths) || request.relation_type_paths.length === 0) {
      throw new AppException(ValidationErrors.Required, requiredDetails('relation_type_paths'));
    }
    this.limits.relationTypePaths('relation_type_paths', request.relation_type_paths);
    const { entries } = await this.kn.querySubgraph(knId, request.relation_type_paths, {
      include_logic_params: request.include_logic_params,
    });
    return { entries };
  }

  async resolveLogicProperties(request: ResolveLogicPropertiesRequest): Promise<ResolveLogicPropertiesResponse> {
    const knId = request.kn_id;
    const otId = requireIdentifier('ot_id', request.ot_id);
    this.limits.text('query', request.query);
    this.limits.text('additional_context', request.additional_context);
    this.limits.instanceIdentities('_instance_identities', request._instance_identities);
    if (!Array.isArray(request._instance_identities) || request._instance_identities.length === 0) {
      throw new AppException(ValidationErrors.Required, '_instance_identities must contain at least one identity');
    }
    if (!Array.isArray(request.properties) || request.properties.length === 0) {
      throw new AppException(ValidationErrors.Required, 'properties must name at least one logic property');
    }
    const { datas } = await this.kn.resolveLogicProperties(knId, otId, {
      _instance_identities: request._instance_identities,
      properties: request.properties,
      inputs: parseAdditionalContext(request.additional_context),
    });
    return { datas };
  }
}

/** additional_context: a JSON object supplies input parameters; free text supplies none. */
export function parseAdditionalContext(context: unknown): Record<string, unknown> {
  if (context === undefined || context === null || context === '') return {};
  if (typeof context === 'object' && !Array.isArray(context)) return context as Record<string, unknown>;
  if (typeof context !== 'string')
    throw new AppException(KnErrors.InvalidAdditionalContext, 'additional_context must be a string');
  const text = context.trim();
  if (!text.startsWith('{')) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    throw new AppException(KnErrors.InvalidAdditionalContext, 'additional_context looks like JSON but does not parse');
  }
  return {};
}
