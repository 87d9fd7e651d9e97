import type { ToolAnnotations } from '@rekog/mcp-nest';
import { z } from 'zod';
import { ConditionOperation, KnCondition } from '../../knowledge-network/knowledge-network.types';

/** Argument and result shapes shared by the knowledge-network tools (SPEC §3, §7). */

const OPERATIONS: [ConditionOperation, ...ConditionOperation[]] = [
  'and', 'or', '==', '!=', '>', '>=', '<', '<=', 'in', 'not_in', 'like', 'not_like', 'range', 'exist', 'not_exist',
  'match', 'knn',
];

export const KN_CONDITION: z.ZodType<KnCondition> = z.looseObject({
  operation: z.enum(OPERATIONS).describe('and/or combine sub_conditions; the others compare `field` with `value`'),
  field: z.string().optional().describe('Property name (data property of the object type)'),
  value: z.unknown().optional().describe('Comparison value; an array for in/not_in/range'),
  value_from: z.literal('const').optional(),
  get sub_conditions() {
    return z.array(KN_CONDITION).optional().describe('Children of an and/or node');
  },
  limit_key: z.string().optional(),
  limit_value: z.number().optional(),
}) as z.ZodType<KnCondition>;

export const INSTANCE_IDENTITY = z
  .record(z.string(), z.unknown())
  .describe('An instance primary-key map exactly as returned in `_instance_identity` by the query tools');

const LOOSE_RECORD = z.looseObject({});

export const SCHEMA_SEARCH_OUTPUT = z.looseObject({
  concepts: z.array(
    z.looseObject({
      concept_type: z.string(),
      concept_id: z.string(),
      concept_name: z.string(),
      concept_detail: LOOSE_RECORD,
    }),
  ),
});

export const KN_SEARCH_OUTPUT = z.looseObject({
  object_types: z.array(LOOSE_RECORD),
  relation_types: z.array(LOOSE_RECORD),
  action_types: z.array(LOOSE_RECORD),
  nodes: z.array(LOOSE_RECORD).optional(),
  message: z.string().optional(),
});

export const INSTANCES_OUTPUT = z.looseObject({ datas: z.array(LOOSE_RECORD) });

export const SUBGRAPH_OUTPUT = z.looseObject({ entries: z.array(LOOSE_RECORD) });

export const ACTION_INFO_OUTPUT = z.looseObject({
  headers: z.record(z.string(), z.string()),
  _dynamic_tools: z.array(
    z.looseObject({
      name: z.string(),
      description: z.string(),
      parameters: LOOSE_RECORD,
      api_url: z.string(),
      fixed_params: LOOSE_RECORD,
      api_call_strategy: z.string(),
    }),
  ),
});

/** Every knowledge-network tool only reads; the network is a closed world owned by this service. */
export function readOnlyTool(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
}
