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
      'Fetches instances of one object type (ot_id) matching a condition, paged by limit. Use it when you know the type; to find the type use kn_search.',
    'zh-Hans': '按条件查询某个对象类（ot_id）的实例，用 limit 控制数量。已知类型时使用；不知道类型时先用 kn_search。',
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
