import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { KN_CONDITION } from '../../knowledge-network/knowledge-network.schemas';
import { RelationTypePath } from '../../knowledge-network/knowledge-network.types';
import { INSTANCE_LIMIT } from '../knsearch.limits';
import { KnSearchService } from '../knsearch.service';
import { INCLUDE_LOGIC_PARAMS_ARGUMENT, SUBGRAPH_OUTPUT } from './kn-schemas';

const LIMIT = z.number().int().min(INSTANCE_LIMIT.min).max(INSTANCE_LIMIT.max).optional();

const OBJECT_TYPE_STEP = z.looseObject({
  id: z.string().min(1).describe('Object type id of this hop'),
  condition: KN_CONDITION.optional().describe('Filter on this hop (e.g. the starting instance)'),
  sort: z.array(z.looseObject({ field: z.string(), direction: z.enum(['asc', 'desc']).optional() })).optional(),
  limit: LIMIT,
});

// The ends may be left out: they are read from the relation type, which also tells the direction of the walk.
const RELATION_STEP = z.looseObject({
  relation_type_id: z.string().min(1),
  source_object_type_id: z.string().min(1).optional(),
  target_object_type_id: z.string().min(1).optional(),
});

/** `query_instance_subgraph`: instances connected along relation paths (multi-hop). */
export const QUERY_INSTANCE_SUBGRAPH = defineCapability({
  name: 'query_instance_subgraph',
  title: { 'en-US': 'Query instance subgraph', 'zh-Hans': '查询实例子图' },
  description: {
    'en-US':
      "Follows relation paths from starting instances and returns the connected instances. Use it for questions that cross types (a patient's diagnoses); for one type use query_object_instance.",
    'zh-Hans':
      '从起始实例沿关系路径展开，返回相连的实例。用于跨类型的问题（如某患者的诊断）；单一类型请用 query_object_instance。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {
    relation_type_paths: z
      .array(
        z.looseObject({
          object_types: z.array(OBJECT_TYPE_STEP).min(1).describe('n+1 object types for n hops, in path order'),
          relation_types: z.array(RELATION_STEP).describe('n relation types linking consecutive object types'),
          limit: LIMIT,
        }),
      )
      .min(1)
      .describe('One or more relation paths to expand'),
    include_logic_params: INCLUDE_LOGIC_PARAMS_ARGUMENT,
  },
  output: SUBGRAPH_OUTPUT,
  rest: { method: 'POST', path: 'kn/query_instance_subgraph', query: { include_logic_params: 'boolean' } },
  service: KnSearchService,
  run: (knSearch, input, context) =>
    knSearch.queryInstanceSubgraph({
      kn_id: context.knId,
      // The walker checks each path against the schema (sort directions included) and names what is wrong.
      relation_type_paths: input.relation_type_paths as RelationTypePath[],
      include_logic_params: input.include_logic_params,
    }),
});
