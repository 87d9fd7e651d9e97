import {
  ActionSource,
  ActionType,
  BoundParameter,
  ConceptGroup,
  DataProperty,
  isConditionOperation,
  KnSchema,
  KnSummary,
  LogicProperty,
  MetricType,
  ObjectType,
  RelationType,
  ValueFrom,
} from '../knowledge-network.types';
import { mapActionGovernance } from './action-governance.mapper';
import { asNumber, asRecord, asRecords, asString, asStrings, asText, compact, JsonRecord } from './json-readers';

/** Maps bkn-backend concept JSON (export, search entries, details) onto the shared KN model. */

const VALUE_SOURCES: ReadonlySet<string> = new Set<ValueFrom>(['property', 'input', 'const']);

type DataSource = { type: string; id: string; name?: string };

function dataSource(value: unknown): DataSource | undefined {
  const record = asRecord(value);
  if (!record) return undefined;
  return compact({ type: asString(record.type) ?? '', id: asString(record.id) ?? '', name: asText(record.name) });
}

function dataProperty(record: JsonRecord): DataProperty {
  return compact({
    name: asString(record.name) ?? '',
    display_name: asText(record.display_name),
    type: asString(record.type) ?? 'string',
    comment: asText(record.comment),
    mapped_field: asText(record.mapped_field) ?? asText(asRecord(record.mapped_field)?.name),
    condition_operations: asStrings(record.condition_operations).filter(isConditionOperation),
  });
}

/** BKN names the binding source `value_from` (API) or `source` (older exports); absent means input. */
export function mapBoundParameter(record: JsonRecord): BoundParameter {
  const declared = [asString(record.value_from), asString(record.source)].find(
    (from) => from && VALUE_SOURCES.has(from),
  );
  return compact({
    name: asString(record.name) ?? '',
    type: asString(record.type) ?? 'string',
    value_from: (declared ?? 'input') as ValueFrom,
    value: record.value === null ? undefined : record.value,
    comment: asText(record.comment),
  });
}

function logicProperty(record: JsonRecord): LogicProperty {
  return compact({
    name: asString(record.name) ?? '',
    display_name: asText(record.display_name),
    type: asString(record.type) ?? 'operator',
    data_source: dataSource(record.data_source),
    comment: asText(record.comment),
    parameters: asRecords(record.parameters).map(mapBoundParameter),
  });
}

export function mapObjectType(record: JsonRecord): ObjectType {
  return compact({
    id: asString(record.id) ?? '',
    name: asString(record.name) ?? '',
    comment: asText(record.comment),
    tags: asStrings(record.tags),
    data_source: dataSource(record.data_source),
    data_properties: asRecords(record.data_properties).map(dataProperty),
    logic_properties: asRecords(record.logic_properties).map(logicProperty),
    primary_keys: asStrings(record.primary_keys),
    display_key: asText(record.display_key),
  });
}

export function mapRelationType(record: JsonRecord): RelationType {
  const type = asString(record.type);
  return compact({
    id: asString(record.id) ?? '',
    name: asString(record.name) ?? '',
    comment: asText(record.comment),
    tags: asStrings(record.tags),
    source_object_type_id: asString(record.source_object_type_id) ?? '',
    target_object_type_id: asString(record.target_object_type_id) ?? '',
    type: type === 'direct' || type === 'data_view' ? type : undefined,
  });
}

export function mapActionSource(value: unknown): ActionSource | undefined {
  const record = asRecord(value);
  const type = asText(record?.type);
  if (!record || !type) return undefined;
  return compact({
    type,
    box_id: asText(record.box_id),
    tool_id: asText(record.tool_id),
    mcp_id: asText(record.mcp_id),
    tool_name: asText(record.tool_name),
  });
}

export function mapActionType(record: JsonRecord): ActionType {
  return compact({
    id: asString(record.id) ?? '',
    name: asString(record.name) ?? '',
    comment: asText(record.comment),
    tags: asStrings(record.tags),
    object_type_id: asString(record.object_type_id) ?? '',
    action_type: asText(record.action_type),
    action_source: mapActionSource(record.action_source),
    parameters: asRecords(record.parameters).map(mapBoundParameter),
    ...mapActionGovernance(record),
  });
}

/** Concept groups list their members as `object_type_ids` or as `object_types` (ids or objects). */
function conceptGroup(record: JsonRecord): ConceptGroup {
  const members = Array.isArray(record.object_types)
    ? record.object_types.map((member) => asString(member) ?? asString(asRecord(member)?.id))
    : asStrings(record.object_type_ids);
  return compact({
    id: asString(record.id) ?? '',
    name: asString(record.name) ?? '',
    comment: asText(record.comment),
    object_type_ids: members.filter((id): id is string => !!id),
  });
}

/** `GET …/knowledge-networks/{kn}?include_detail=true&mode=export` → KnSchema. */
export function mapExport(knId: string, body: unknown): KnSchema {
  const record = asRecord(body) ?? {};
  return compact({
    id: asText(record.id) ?? knId,
    name: asText(record.name) ?? knId,
    comment: asText(record.comment),
    object_types: asRecords(record.object_types).map(mapObjectType),
    relation_types: asRecords(record.relation_types).map(mapRelationType),
    action_types: asRecords(record.action_types).map(mapActionType),
    concept_groups: asRecords(record.concept_groups).map(conceptGroup),
    metric_types: Array.isArray(record.metric_types) ? mapMetricTypes(record.metric_types) : undefined,
  });
}

/**
 * bkn-backend metric entries are passed on in BKN's own shape (upstream-contracts §2.2); entries without
 * an id are dropped, and the fields the model requires are given their neutral value when absent.
 */
export function mapMetricTypes(entries: unknown): MetricType[] {
  return asRecords(entries)
    .filter((entry) => asText(entry.id) !== undefined)
    .map((entry) => ({
      ...entry,
      id: asText(entry.id)!,
      name: asString(entry.name) ?? '',
      metric_type: asString(entry.metric_type) ?? '',
      scope_type: asString(entry.scope_type) ?? '',
      scope_ref: asString(entry.scope_ref) ?? '',
      calculation_formula: asString(entry.calculation_formula) ?? '',
    }));
}

/** One entry of the BKN network list; counts come from `statistics` when BKN includes it. */
export function mapSummary(record: JsonRecord): KnSummary {
  const statistics = asRecord(record.statistics) ?? {};
  return compact({
    id: asString(record.id) ?? '',
    name: asString(record.name) ?? '',
    comment: asText(record.comment) ?? asText(record.description),
    object_type_count: asNumber(statistics.object_types_total) ?? 0,
    relation_type_count: asNumber(statistics.relation_types_total) ?? 0,
    action_type_count: asNumber(statistics.action_types_total) ?? 0,
  });
}
