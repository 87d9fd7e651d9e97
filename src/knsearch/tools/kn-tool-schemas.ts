import { z } from 'zod';

/** Result shapes of the knowledge-network search tools (SPEC §3, §7). */

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

export const SCHEMA_TYPES_OUTPUT = z.looseObject({
  object_types: z.array(LOOSE_RECORD),
  relation_types: z.array(LOOSE_RECORD),
  action_types: z.array(LOOSE_RECORD),
  metric_types: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      metric_type: z.string(),
      scope_type: z.string(),
      scope_ref: z.string(),
      calculation_formula: z.string(),
    }),
  ),
});

export const INSTANCES_OUTPUT = z.looseObject({ datas: z.array(LOOSE_RECORD) });

export const SUBGRAPH_OUTPUT = z.looseObject({ entries: z.array(LOOSE_RECORD) });

export const SKILLS_OUTPUT = z.looseObject({
  entries: z.array(z.looseObject({ skill_id: z.string(), name: z.string(), description: z.string().optional() })),
  message: z.string().optional(),
});
