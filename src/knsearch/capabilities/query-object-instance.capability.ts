import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { KN_CONDITION } from '../../knowledge-network/knowledge-network.schemas';
import { INSTANCE_LIMIT } from '../knsearch.limits';
import { KnSearchService } from '../knsearch.service';
import { INCLUDE_LOGIC_PARAMS_ARGUMENT, INSTANCES_OUTPUT } from './kn-schemas';

/** `query_object_instance`: the instances of one object type that satisfy a condition. */
export const QUERY_OBJECT_INSTANCE = defineCapability({
  name: 'query_object_instance',
  title: { 'en-US': 'Query object instances', 'zh-Hans': '查询对象实例' },
  description: {
    'en-US':
      'List the instances of one object type that satisfy a condition (exact filters: ==, !=, >, <, in, like, ' +
      'range, exist, match, knn combined with and/or). Returns `datas[]`: each instance with its properties and ' +
      '`_instance_identity` (its primary-key map). Use it after kn_schema_search/kn_search told you the ot_id and ' +
      'property names. Pass `_instance_identity` values on to query_instance_subgraph conditions, ' +
      'resolve_logic_properties (`_instance_identities`) or get_action_info.',
    'zh-Hans':
      '列出某个对象类中满足条件的实例（精确过滤：==、!=、>、<、in、like、range、exist、match、knn，可用 and/or 组合）。' +
      '返回 `datas[]`：每个实例的属性及其 `_instance_identity`（主键映射）。在 kn_schema_search/kn_search 给出 ot_id ' +
      '和属性名之后使用。把 `_instance_identity` 交给 query_instance_subgraph 的条件、resolve_logic_properties' +
      '（`_instance_identities`）或 get_action_info。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    ot_id: z.string().min(1).describe('Object type id, from kn_schema_search or kn_search'),
    condition: KN_CONDITION.optional().describe(
      'Filter tree, e.g. {"operation":"and","sub_conditions":[{"field":"name","operation":"==","value":"张三"}]}',
    ),
    limit: z
      .number()
      .int()
      .min(INSTANCE_LIMIT.min)
      .max(INSTANCE_LIMIT.max)
      .default(INSTANCE_LIMIT.default)
      .describe(`Most instances to return (${INSTANCE_LIMIT.min}-${INSTANCE_LIMIT.max})`),
    properties: z.array(z.string()).optional().describe('Only these properties (default: all)'),
    include_logic_params: INCLUDE_LOGIC_PARAMS_ARGUMENT,
  },
  output: INSTANCES_OUTPUT,
  rest: {
    method: 'POST',
    path: 'kn/query_object_instance',
    query: { ot_id: 'string', include_logic_params: 'boolean' },
  },
  service: KnSearchService,
  run: (knSearch, input, context) =>
    knSearch.queryObjectInstance({
      kn_id: context.knId,
      ot_id: input.ot_id,
      condition: input.condition,
      limit: input.limit,
      properties: input.properties,
      include_logic_params: input.include_logic_params,
    }),
});
