/**
 * Knowledge-network model shared by the port, both adapters and the services. Field names follow the
 * upstream wire contract (snake_case, `reference/upstream-contracts.md` §2, §7) so the KWeaver adapter
 * maps one to one and responses need no renaming.
 */

export type ConceptType = 'object_type' | 'relation_type' | 'action_type';

/** Every operation a condition node may carry (SPEC §3): and/or combine, the others test one field. */
export const CONDITION_OPERATIONS = [
  'and',
  'or',
  '==',
  '!=',
  '>',
  '>=',
  '<',
  '<=',
  'in',
  'not_in',
  'like',
  'not_like',
  'range',
  'exist',
  'not_exist',
  'match',
  'knn',
] as const;

export type ConditionOperation = (typeof CONDITION_OPERATIONS)[number];

export function isConditionOperation(value: unknown): value is ConditionOperation {
  return typeof value === 'string' && (CONDITION_OPERATIONS as readonly string[]).includes(value);
}

/** A condition tree node (`and`/`or` carry sub_conditions; leaves carry field + value). */
export interface KnCondition {
  operation: ConditionOperation;
  field?: string;
  value?: unknown;
  value_from?: 'const';
  sub_conditions?: KnCondition[];
  /** knn only: how many neighbours (`limit_key: "k"`). */
  limit_key?: string;
  limit_value?: number;
}

export interface DataProperty {
  name: string;
  display_name?: string;
  /** string, integer, float, decimal, boolean, date, time, datetime, text, json, binary */
  type: string;
  comment?: string;
  mapped_field?: string;
  /** Operations a condition may apply to this property. */
  condition_operations: ConditionOperation[];
}

export type ValueFrom = 'property' | 'input' | 'const';

export interface BoundParameter {
  name: string;
  type: string;
  value_from: ValueFrom;
  /** property name (value_from=property) or the constant (value_from=const). */
  value?: unknown;
  comment?: string;
}

export interface LogicProperty {
  name: string;
  display_name?: string;
  /** `operator` or the legacy `metric`. */
  type: string;
  data_source?: { type: string; id: string; name?: string };
  comment?: string;
  parameters: BoundParameter[];
}

export interface ObjectType {
  id: string;
  name: string;
  comment?: string;
  tags?: string[];
  data_source?: { type: string; id: string; name?: string };
  data_properties: DataProperty[];
  logic_properties: LogicProperty[];
  primary_keys: string[];
  display_key?: string;
}

export interface RelationType {
  id: string;
  name: string;
  comment?: string;
  tags?: string[];
  source_object_type_id: string;
  target_object_type_id: string;
  /** `direct` (property equality) or `data_view` (join through a view). */
  type?: 'direct' | 'data_view';
}

/** The end of a relation type that is not `typeId` (the same type for a relation from a type to itself). */
export function otherEnd(relation: RelationType, typeId: string): string {
  return relation.source_object_type_id === typeId ? relation.target_object_type_id : relation.source_object_type_id;
}

export interface ActionSource {
  /** `tool` or `mcp`; anything else is rejected by action recall. */
  type: string;
  box_id?: string;
  tool_id?: string;
  mcp_id?: string;
  tool_name?: string;
}

/** Operations a BKN Trigger Condition or Pre-conditions check may use (bkn-format: action type). */
export const ACTION_CONDITION_OPERATIONS = [
  '==',
  '!=',
  '>',
  '<',
  '>=',
  '<=',
  'in',
  'not_in',
  'exist',
  'not_exist',
  'range',
] as const;

export type ActionConditionOperation = (typeof ACTION_CONDITION_OPERATIONS)[number];

/**
 * One check the bound instance must pass before the action may run: a property of the instance
 * (`field`), or whether it has related instances through a relation type (`relation_type_id`, only
 * `exist` / `not_exist`). `operation` stays a string so an upstream's unknown operation fails closed.
 */
export interface ActionCondition {
  /** The object type checked; always the bound object type (absent means the same). */
  object_type_id?: string;
  field?: string;
  relation_type_id?: string;
  operation: string;
  /** `in`/`not_in`: a list; `range`: `[min, max]` inclusive; exist/not_exist: none. */
  value?: unknown;
  /** Shown to the caller when the check fails. */
  message?: string;
}

export interface ActionType {
  id: string;
  name: string;
  comment?: string;
  tags?: string[];
  object_type_id: string;
  /** add | modify | delete | query */
  action_type?: string;
  action_source?: ActionSource;
  parameters: BoundParameter[];
  /** `false`: execute_action refuses it (BKN frontmatter `enabled`; absent means enabled). */
  enabled?: boolean;
  risk_level?: 'low' | 'medium' | 'high';
  /** `true` (or risk_level high): execute_action runs it only with `confirm: true`. */
  requires_approval?: boolean;
  /** BKN `### Trigger Condition`: every check must hold for the instance. */
  trigger_condition?: ActionCondition[];
  /** BKN `### Pre-conditions`: every check must hold for the instance. */
  pre_conditions?: ActionCondition[];
}

export interface ConceptGroup {
  id: string;
  name: string;
  comment?: string;
  object_type_ids: string[];
}

export interface KnSummary {
  id: string;
  name: string;
  comment?: string;
  object_type_count: number;
  relation_type_count: number;
  action_type_count: number;
  /** Instances stored for the network; undefined when the backend cannot count them. */
  instance_count?: number;
}

/**
 * A metric type (BKN `metrics/*.bkn`, `type: metric`; bkn-backend's MetricType, upstream-contracts §2.2):
 * a named business measure, scoped to an object type (`scope_type: object_type`, `scope_ref` its id) or
 * to the whole network, with the formula and the dimensions it can be broken down by.
 */
export interface MetricType {
  id: string;
  name: string;
  comment?: string;
  unit_type?: string;
  unit?: string;
  /** e.g. atomic | derived | composite */
  metric_type: string;
  /** object_type | network */
  scope_type: string;
  scope_ref: string;
  time_dimension?: string;
  calculation_formula: string;
  analysis_dimensions?: { name: string; display_name?: string; comment?: string }[];
}

export interface KnSchema {
  id: string;
  name: string;
  comment?: string;
  object_types: ObjectType[];
  relation_types: RelationType[];
  action_types: ActionType[];
  concept_groups: ConceptGroup[];
  /** Present when the backend's schema carries metric types (the embedded store; bkn-backend's export may not). */
  metric_types?: MetricType[];
}

/**
 * Metric recall: `direct` ranks every metric by the query; with `object_type_ids` it is the expansion
 * recall — only metrics scoped to one of those object types, still ranked by the query.
 */
export interface MetricSearchRequest {
  query: string;
  limit: number;
  object_type_ids?: string[];
}

/** A bkn-backend build job (upstream-contracts §7.2). */
export interface OntologyBuildJob {
  id: string;
  name?: string;
  kn_id?: string;
  /** pending | running | completed | canceled | failed */
  state: string;
  state_detail?: string;
  create_time?: unknown;
  finished_time?: unknown;
}

export interface ConceptSearchRequest {
  query: string;
  concept_types: ConceptType[];
  limit: number;
  concept_groups?: string[];
}

export interface ConceptHit {
  concept_type: ConceptType;
  id: string;
  name: string;
  /** Relevance, higher is better; comparable only within one response. */
  score: number;
  detail: ObjectType | RelationType | ActionType;
  /** Per-channel scores when search is hybrid or reranked. */
  score_channels?: ScoreChannels;
}

/** An instance identity: primary-key property → value. */
export type InstanceIdentity = Record<string, unknown>;

/** One object instance: its properties plus `_instance_identity` (and `_score` when a match ranked it). */
/**
 * What each retrieval channel made of one result, present when search is hybrid or reranked: `keyword`
 * the bm25 score, `vector` the cosine similarity, `fused` the rank it was given by reciprocal-rank
 * fusion, `rerank` the cross-encoder's score. A channel that did not find the result is absent.
 */
export interface ScoreChannels {
  keyword?: number;
  vector?: number;
  fused?: number;
  rerank?: number;
}

export type ObjectInstance = Record<string, unknown> & {
  _instance_identity: InstanceIdentity;
  _display?: string;
  _score?: number;
  _score_channels?: ScoreChannels;
};

export interface InstanceQuery {
  condition?: KnCondition;
  /** 1..10000 */
  limit: number;
  properties?: string[];
  include_logic_params?: boolean;
  /**
   * The caller keeps only the first `first` rows and those whose display name name-matches `named`, or,
   * for a row without a relevance score, that hold a text value equal to it (kn_search's cut per object
   * type: a scored row ranks by the larger of its relevance and its name match, so an equal value cannot
   * lift it past the first). An adapter may leave out the other rows rather than send them, and
   * `object_type` with them.
   */
  shortlist?: { first: number; named: string };
}

/** One object type's query in a batch (KnowledgeNetworkPort.queryInstanceBatch). */
export interface TypedInstanceQuery {
  otId: string;
  query: InstanceQuery;
}

export interface InstanceQueryResult {
  datas: ObjectInstance[];
  object_type?: ObjectType;
}

export interface SubgraphObjectTypeStep {
  id: string;
  condition?: KnCondition;
  sort?: { field: string; direction: 'asc' | 'desc' }[];
  limit?: number;
}

export interface RelationTypePath {
  object_types: SubgraphObjectTypeStep[];
  relation_types: { relation_type_id: string; source_object_type_id: string; target_object_type_id: string }[];
  limit?: number;
}

export interface SubgraphObject {
  id: string;
  unique_identities: InstanceIdentity;
  object_type_id: string;
  object_type_name: string;
  display: string;
  properties: Record<string, unknown>;
}

export interface SubgraphEntry {
  objects: Record<string, SubgraphObject>;
  relation_paths: { relations: { relation_type_id: string; source_object_id: string; target_object_id: string }[] }[];
  total_count: number;
}

export interface SubgraphOptions {
  /** Add each logic property's parameter definitions (with this instance's bound values) to the objects. */
  include_logic_params?: boolean;
}

export interface SubgraphResult {
  entries: SubgraphEntry[];
}

export interface ActionQueryResult {
  action_type?: ActionType;
  action_source?: ActionSource;
  /** One per target instance; `parameters` are bound values (input parameters are left out). */
  actions: { parameters: Record<string, unknown>; _instance_identity?: InstanceIdentity }[];
}

export interface LogicPropertyRequest {
  _instance_identities: InstanceIdentity[];
  properties: string[];
  /** Values for `input` parameters, by parameter name (parsed from the caller's additional_context). */
  inputs?: Record<string, unknown>;
}

export interface LogicPropertyResult {
  /** One row per identity: the identity plus each resolved property's value. */
  datas: Record<string, unknown>[];
}

/** What the knowledge-network adapter reports to readiness and /health. */
/** A served network's index, as /health and the reload route report it. */
export interface NetworkIndexStatus {
  kn_id: string;
  /** `building`: a re-index runs while the previous index still serves; `failed`: it did not replace it. */
  state: 'ready' | 'building' | 'failed';
  /** The content key the served index was built for (format version, embedding model, source files). */
  hash: string;
  /** `file` under INDEX_DIR, or `memory` when INDEX_DIR cannot hold files. */
  storage: 'file' | 'memory';
  built_at: string;
  build_ms: number;
  /** Opened from an existing index file instead of being built by this process. */
  reused: boolean;
  /** Why the last re-index failed (the previous index is still served). */
  error?: string;
}

export interface KnHealth {
  ready: boolean;
  details?: Record<string, unknown>;
}
