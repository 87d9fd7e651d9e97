/**
 * The zh-Hans text of every English description a client reads besides the tools' own (parameters,
 * prompts, resource templates), keyed by the English text so a schema written once in English is
 * localized as it is listed. `descriptions.spec.ts` fails when a description has no entry here.
 */
export const ZH_HANS_DESCRIPTIONS: Readonly<Record<string, string>> = {
  // Every network capability, and the text rendering.
  'Network id (default: X-Kn-ID)': '网络 id（默认取 X-Kn-ID）',
  'Text rendering (structuredContent is always JSON)': '文本呈现方式（structuredContent 始终为 JSON）',
  'Ignored: always JSON': '忽略：始终为 JSON',
  'Fields of the answer: brief (default for MCP and chat, what an agent needs) or full (default for REST)':
    '回答的字段：brief（MCP 与对话默认，智能体所需字段）或 full（REST 默认）',
  'next_cursor of the previous answer: the next page of nodes': '上一次回答的 next_cursor：下一页节点',
  // Discovery and schema search.
  'true (default): ids, names and relation endpoints only; false: every field of every type':
    'true（默认）：仅 id、名称和关系端点；false：每个类型的全部字段',
  'What the user is asking about, in their words (e.g. "糖尿病患者的用药")':
    '用户所问的内容，用其原话（如"糖尿病患者的用药"）',
  'Concept groups and which of the four concept types to search (at least one)':
    '要检索的概念分组，以及四种概念类型中的哪些（至少一种）',
  'Restrict to these concept groups': '仅限这些概念分组',
  'Default true': '默认 true',
  'Relation types kept, object types beyond their endpoints, and metric types returned':
    '保留的关系类数、关系端点之外的对象类数，以及返回的指标类数',
  'true: ids, names and property names/types only (default: true for MCP and chat, false for REST)':
    'true：仅 id、名称及属性名/类型（MCP 与对话默认 true，REST 默认 false）',
  'Rank relation types by relevance before cutting': '截断前按相关度对关系类排序',
  'What the user is asking about, in their words (e.g. "患者的诊断和用药")':
    '用户所问的内容，用其原话（如"患者的诊断和用药"）',
  'Which kinds of concepts to search': '要检索的概念种类',
  'Most concepts to return': '最多返回的概念数',
  'The user question or keywords (e.g. "糖尿病治疗方案")': '用户的问题或关键词（如"糖尿病治疗方案"）',
  'true: return only concepts, no instance nodes': 'true：只返回概念，不返回实例节点',
  'Rerank recalled concepts for relevance': '按相关度对召回的概念重排序',
  'Tuning: concept_retrieval.top_k, semantic_instance_retrieval.*, property_filter.*':
    '调优：concept_retrieval.top_k、semantic_instance_retrieval.*、property_filter.*',
  // Instances, subgraphs, logic properties.
  'Object type id, from kn_schema_search or kn_search': '对象类 id，来自 kn_schema_search 或 kn_search',
  'Filter tree, e.g. {"operation":"and","sub_conditions":[{"field":"name","operation":"==","value":"张三"}]}':
    '过滤条件树，如 {"operation":"and","sub_conditions":[{"field":"name","operation":"==","value":"张三"}]}',
  'Most instances to return (1-10000)': '最多返回的实例数（1-10000）',
  'Only these properties (default: all)': '仅返回这些属性（默认全部）',
  'true: add each logic property with its parameter definitions and this instance’s bound values':
    'true：附上每个逻辑属性的参数定义及该实例的绑定值',
  'and/or combine sub_conditions; the others compare `field` with `value`':
    'and/or 组合 sub_conditions；其余操作将 `field` 与 `value` 比较',
  'Property name (data property of the object type)': '属性名（对象类的数据属性）',
  'Comparison value; an array for in/not_in/range': '比较值；in/not_in/range 时为数组',
  'Children of an and/or node': 'and/or 节点的子条件',
  'Object type id of this hop': '这一跳的对象类 id',
  'Filter on this hop (e.g. the starting instance)': '这一跳的过滤条件（如起始实例）',
  'n+1 object types for n hops, in path order': 'n 跳对应 n+1 个对象类，按路径顺序',
  'n relation types linking consecutive object types': '连接相邻对象类的 n 个关系类',
  'One or more relation paths to expand': '要展开的一条或多条关系路径',
  'Object type that declares the logic properties': '声明这些逻辑属性的对象类',
  'The user question the values are for (used to fill time ranges and inputs)':
    '这些值所服务的用户问题（用于填充时间范围和输入）',
  'An instance primary-key map exactly as returned in `_instance_identity` by the query tools':
    '实例主键映射，与查询工具返回的 `_instance_identity` 完全一致',
  'Instances to compute for: `_instance_identity` values from query_object_instance':
    '要计算的实例：来自 query_object_instance 的 `_instance_identity` 值',
  'Logic property names (metrics/operators) to resolve': '要计算的逻辑属性名（指标/算子）',
  'Extra context; a JSON object string supplies input parameter values by name':
    '额外上下文；JSON 对象字符串按名称提供输入参数值',
  'Accepted for compatibility with the upstream API; not used': '为兼容上游 API 而接受；不使用',
  // Skills and ontology jobs.
  'Object type the skills are for, e.g. `patient` or `pod`': '技能所属的对象类，如 `patient` 或 `pod`',
  'Instances (`_instance_identity` values); skills bound to them rank first':
    '实例（`_instance_identity` 值）；绑定到这些实例的技能排在前面',
  'Words the skill name or description must share, e.g. 随访 or triage; omit to get every bound skill':
    '技能名称或描述须包含的词，如 随访 或 triage；省略则返回全部绑定技能',
  'How many skills to return': '返回的技能数',
  'Name of the build job': '构建任务名称',
  // Knowledge-base search (the seed's own words).
  'Search query. Can be natural language question or keywords. For best results, include domain-specific terms.':
    '检索查询。可以是自然语言问题或关键词。包含领域术语效果最佳。',
  'Search mode: "hybrid" (recommended) combines vector and keyword search, "vector" for semantic similarity, "keyword" for exact matches.':
    '检索模式："hybrid"（推荐）结合向量与关键词检索，"vector" 用于语义相似，"keyword" 用于精确匹配。',
  'Maximum number of results to return (1-50). Use smaller values for focused queries, larger for exploratory searches.':
    '最多返回的结果数（1-50）。聚焦查询用较小值，探索性检索用较大值。',
  'Minimum relevance score threshold (0-1). Higher values return more relevant but fewer results.':
    '最低相关度阈值（0-1）。值越高结果越相关但越少。',
  'Whether to apply reranking for improved relevance ordering. Recommended for important queries.':
    '是否重排序以改进相关度排序。重要查询建议开启。',
  // Code tools.
  'What to look for in the code: words or identifiers': '要在代码中查找的内容：词语或标识符',
  'Graph expansion hops, 0–5 (default 1; 0 = keyword only)': '图扩展跳数，0–5（默认 1；0 表示仅关键词）',
  'Token budget for returned content (default 8000)': '返回内容的 token 预算（默认 8000）',
  'Function, method or class name': '函数、方法或类名',
  'Which side of the chain (default both)': '调用链的哪一侧（默认两侧）',
  'Hops to follow, 1–5 (default 2)': '追踪的跳数，1–5（默认 2）',
  // Actions.
  'Action type id, from kn_schema_search or kn_search action_types':
    '行动类 id，来自 kn_schema_search 或 kn_search 的 action_types',
  'Instances the action is for (`_instance_identity` values from the query tools)':
    '行动针对的实例（来自查询工具的 `_instance_identity` 值）',
  'One instance the action is for; `_instance_identities` wins when it is not empty':
    '行动针对的单个实例；`_instance_identities` 非空时以其为准',
  'Action type id, from kn_search / kn_schema_search action_types':
    '行动类 id，来自 kn_search / kn_schema_search 的 action_types',
  'The one instance to act on: its `_instance_identity` from query_object_instance or kn_search':
    '要操作的实例：来自 query_object_instance 或 kn_search 的 `_instance_identity`',
  'Input arguments for the action, named as in get_action_info `parameters` (flat names; a toolbox tool also takes {header, path, query, body}). Leave out what the network fixes: fixed values always win.':
    '行动的输入参数，名称与 get_action_info 的 `parameters` 一致（扁平名称；工具箱工具也接受 {header, path, query, body}）。网络已固定的值无需填写：固定值总是优先。',
  'true only after the user approved this exact execution; required when the action requires approval or is high risk':
    '仅在用户批准了这次具体执行后才为 true；行动需要审批或属高风险时必填',
  // Prompts.
  'Knowledge network id (default: the connection X-Kn-ID)': '知识网络 id（默认取连接的 X-Kn-ID）',
  'Explore a knowledge network': '了解一个知识网络',
  'Walk through a knowledge network: its object, relation and action types, and how to query them.':
    '带你了解一个知识网络：它的对象类、关系类和行动类，以及如何查询它们。',
  'Answer a question from the knowledge network': '用知识网络回答问题',
  'Answer a question from the knowledge network: search, fetch instances, follow relations, cite them.':
    '用知识网络回答问题：检索、获取实例、沿关系展开，并给出引用。',
  'The question to answer': '要回答的问题',
  'Prepare an action on an instance': '为实例准备一个行动',
  'Find the action that fits a goal for one instance and show its parameters; never execute without the user.':
    '为某个实例找到符合目标的行动并展示其参数；未经用户同意绝不执行。',
  'Object type of the instance': '实例的对象类',
  'The instance: its primary key value or a JSON object of primary keys': '实例：其主键值或主键组成的 JSON 对象',
  'What the user wants to achieve': '用户想达成的目标',
  // check_action.
  'The one instance to check: its `_instance_identity` from query_object_instance or kn_search':
    '要检查的那个实例：来自 query_object_instance 或 kn_search 的 `_instance_identity`',
  'Input arguments as execute_action would take them; fixed values are merged over them':
    '按 execute_action 的形式给出的输入参数；固定值会覆盖合并其上',
  // Resource templates.
  'A knowledge network: name, description, counts, object/relation/action types and concept groups (Markdown, JSON alternative).':
    '一个知识网络：名称、描述、数量、对象/关系/行动类和概念分组（Markdown，另附 JSON）。',
  'One object type: primary keys, properties with types, logic properties (Markdown, JSON alternative).':
    '一个对象类：主键、带类型的属性、逻辑属性（Markdown，另附 JSON）。',
  'One relation type: its source and target object types (Markdown, JSON alternative).':
    '一个关系类：其源对象类和目标对象类（Markdown，另附 JSON）。',
  'One action type: the object type it acts on and its parameters (Markdown, JSON alternative).':
    '一个行动类：其作用的对象类及参数（Markdown，另附 JSON）。',
};
