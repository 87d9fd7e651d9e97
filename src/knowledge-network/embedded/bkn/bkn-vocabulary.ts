/**
 * English (canonical) and Chinese names of BKN headings and table columns. The BKN spec asks parsers
 * to accept both; names are compared after `normalizeName` (lower case, no spaces, `_` or `-`).
 */
export function normalizeName(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_\-:：*`]+/g, '');
}

const aliases = <K extends string>(table: Record<K, string[]>): Map<string, K> => {
  const map = new Map<string, K>();
  for (const [key, names] of Object.entries(table) as [K, string[]][]) {
    for (const name of names) map.set(normalizeName(name), key);
  }
  return map;
};

export type SectionName =
  | 'data_source'
  | 'data_properties'
  | 'keys'
  | 'logic_properties'
  | 'endpoint'
  | 'mapping_rules'
  | 'mapping_view'
  | 'source_mapping'
  | 'target_mapping'
  | 'bound_object'
  | 'tool_configuration'
  | 'action_source'
  | 'parameter_binding'
  | 'trigger_condition'
  | 'pre_conditions'
  | 'object_types'
  | 'calculation_formula'
  | 'analysis_dimensions';

export const SECTIONS = aliases<SectionName>({
  data_source: ['Data Source', '数据来源', '数据源'],
  data_properties: ['Data Properties', '数据属性'],
  keys: ['Keys', '键定义', '主键定义'],
  logic_properties: ['Logic Properties', '逻辑属性'],
  endpoint: ['Endpoint', '关联定义', '端点'],
  mapping_rules: ['Mapping Rules', '映射规则'],
  mapping_view: ['Mapping View', '映射视图'],
  source_mapping: ['Source Mapping', '起点映射'],
  target_mapping: ['Target Mapping', '终点映射'],
  bound_object: ['Bound Object', '绑定对象'],
  tool_configuration: ['Tool Configuration', '工具配置'],
  action_source: ['Action Source', '行动来源', '行动源'],
  parameter_binding: ['Parameter Binding', '参数绑定'],
  trigger_condition: ['Trigger Condition', 'Trigger Conditions', '触发条件'],
  pre_conditions: ['Pre-conditions', 'Pre-condition', 'Preconditions', '前置条件'],
  object_types: ['Object Types', '对象类型列表', '对象类型'],
  calculation_formula: ['Calculation Formula', 'Formula', '计算公式', '计算口径'],
  analysis_dimensions: ['Analysis Dimensions', 'Dimensions', '分析维度'],
});

export type DefinitionKind = 'object_type' | 'relation_type' | 'action_type' | 'concept_group' | 'risk_type' | 'metric';

export const DEFINITION_HEADINGS = aliases<DefinitionKind>({
  object_type: ['ObjectType', 'Object Type', '对象类型'],
  relation_type: ['RelationType', 'Relation Type', '关系类型'],
  action_type: ['ActionType', 'Action Type', '行动类型'],
  concept_group: ['ConceptGroup', 'Concept Group', '概念分组'],
  risk_type: ['RiskType', 'Risk Type', '风险类型'],
  metric: ['Metric', 'MetricType', 'Metric Type', '指标'],
});

export type ColumnName =
  | 'name'
  | 'display_name'
  | 'type'
  | 'description'
  | 'mapped_field'
  | 'id'
  | 'source'
  | 'target'
  | 'source_property'
  | 'target_property'
  | 'view_property'
  | 'parameter'
  | 'binding'
  | 'bound_object'
  | 'action_type'
  | 'box_id'
  | 'tool_id'
  | 'mcp_id'
  | 'tool_name'
  | 'operation'
  | 'value_from'
  | 'value'
  | 'object'
  | 'check'
  | 'condition'
  | 'message';

export const COLUMNS = aliases<ColumnName>({
  name: ['Name', '名称', '属性名', '属性名称', '字段名'],
  display_name: ['Display Name', 'DisplayName', '显示名', '显示名称', '展示名'],
  type: ['Type', '类型', '数据类型'],
  description: ['Description', 'Comment', '描述', '说明', '备注'],
  mapped_field: ['Mapped Field', '映射字段'],
  id: ['ID', '标识'],
  source: ['Source', '起点', '源', '来源', '值来源方式'],
  target: ['Target', '终点', '目标'],
  source_property: ['Source Property', '起点属性', '源属性'],
  target_property: ['Target Property', '终点属性', '目标属性'],
  view_property: ['View Property', '视图属性'],
  parameter: ['Parameter', '参数', '参数名'],
  binding: ['Binding', '绑定', '绑定值'],
  bound_object: ['Bound Object', '绑定对象'],
  action_type: ['Action Type', '行动类型', '操作类型'],
  box_id: ['Toolbox ID', 'BoxID', 'Box ID', '工具箱ID', '工具箱'],
  tool_id: ['Tool ID', 'ToolID', '工具ID'],
  mcp_id: ['MCP ID', 'McpID'],
  tool_name: ['Tool Name', 'ToolName', '工具名称', '工具名'],
  operation: ['Operation', '操作'],
  value_from: ['ValueFrom', 'Value From', '值来源'],
  value: ['Value', '值'],
  object: ['Object', '对象'],
  check: ['Check', 'Field', '检查项', '检查', '字段'],
  condition: ['Condition', '条件'],
  message: ['Message', '提示', '提示信息', '消息'],
});

export type KeyLine = 'primary_keys' | 'display_key' | 'incremental_key';

export const KEY_LINES = aliases<KeyLine>({
  primary_keys: ['Primary Keys', 'Primary Key', '主键'],
  display_key: ['Display Key', '显示键', '展示键', '显示字段'],
  incremental_key: ['Incremental Key', '增量键'],
});

export type LogicField = 'display' | 'type' | 'source' | 'description';

export const LOGIC_FIELDS = aliases<LogicField>({
  display: ['Display', 'Display Name', '显示名', '显示名称', '显示'],
  type: ['Type', '类型'],
  source: ['Source', '来源', '数据源', '算子'],
  description: ['Description', '描述', '说明'],
});
