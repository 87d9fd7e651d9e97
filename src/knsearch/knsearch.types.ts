import {
  ActionType,
  ConceptGroup,
  ConceptType,
  InstanceIdentity,
  KnCondition,
  MetricType,
  ObjectInstance,
  ObjectType,
  RelationType,
  RelationTypePath,
  ScoreChannels,
  SubgraphEntry,
} from '../knowledge-network/knowledge-network.types';

/** Service inputs with kn_id already resolved (body/argument over X-Kn-ID). Shared by REST and MCP. */

export interface SearchScope {
  concept_groups?: string[];
  include_object_types?: boolean;
  include_relation_types?: boolean;
  include_action_types?: boolean;
}

export interface KnSearchRequest {
  kn_id: string;
  query: string;
  only_schema?: boolean;
  enable_rerank?: boolean;
  search_scope?: SearchScope;
  retrieval_config?: Record<string, unknown>;
}

export interface KnSearchNode {
  object_type_id: string;
  object_type_name: string;
  instance_name: string;
  unique_identities: InstanceIdentity;
  properties: Record<string, unknown>;
  score: number;
  /** Per-channel scores (keyword, vector, fused, rerank) when search is hybrid or reranked. */
  _score_channels?: ScoreChannels;
}

export interface KnSearchResponse {
  object_types: Record<string, unknown>[];
  relation_types: Record<string, unknown>[];
  action_types: Record<string, unknown>[];
  nodes?: KnSearchNode[];
  message?: string;
}

/** search_schema's scope: kn_search's plus metric types. */
export interface SchemaSearchScope extends SearchScope {
  include_metric_types?: boolean;
}

export interface SchemaSearchRequest {
  kn_id: string;
  query: string;
  search_scope?: SchemaSearchScope;
  /** Budget for relations and (beyond the relations' endpoints) objects, and the metric count; default 10. */
  max_concepts?: number;
  schema_brief?: boolean;
  enable_rerank?: boolean;
}

/** The four arrays are always present (an excluded type is `[]`). */
export interface SchemaSearchResponse {
  object_types: Record<string, unknown>[];
  relation_types: Record<string, unknown>[];
  action_types: Record<string, unknown>[];
  metric_types: MetricType[];
}

export interface SemanticSearchRequest {
  kn_id: string;
  query: string;
  search_scope?: SearchScope;
  max_concepts?: number;
}

export interface SemanticSearchResponse {
  concepts: {
    concept_type: ConceptType;
    concept_id: string;
    concept_name: string;
    concept_detail: ObjectType | RelationType | ActionType;
    _score_channels?: ScoreChannels;
  }[];
}

export interface QueryObjectInstanceRequest {
  kn_id: string;
  ot_id: string;
  condition?: KnCondition;
  limit?: number;
  properties?: string[];
  include_logic_params?: boolean;
}

export interface QueryObjectInstanceResponse {
  datas: ObjectInstance[];
}

export interface QueryInstanceSubgraphRequest {
  kn_id: string;
  relation_type_paths: RelationTypePath[];
  include_logic_params?: boolean;
}

export interface QueryInstanceSubgraphResponse {
  entries: SubgraphEntry[];
}

export interface ResolveLogicPropertiesRequest {
  kn_id: string;
  ot_id: string;
  query: string;
  _instance_identities: InstanceIdentity[];
  properties: string[];
  /** Free text or a JSON object string; JSON keys supply `input` parameter values. */
  additional_context?: string;
}

export interface ResolveLogicPropertiesResponse {
  datas: Record<string, unknown>[];
}

/** `get_kn_detail`: one network for discovery; types are brief (ids, names, endpoints) unless asked otherwise. */
export interface KnDetail {
  id: string;
  name: string;
  comment?: string;
  counts: { object_types: number; relation_types: number; action_types: number; metric_types: number };
  concept_groups: ConceptGroup[];
  object_types: object[];
  relation_types: object[];
  action_types: object[];
  metric_types: object[];
}
