import { z } from 'zod';
import { MAX_CONCEPTS } from '../knsearch.limits';

/** Argument and result shapes shared by the knowledge-network search tools (SPEC §3, §7). */

const SCOPE_TYPES = {
  concept_groups: z.array(z.string()).optional().describe('Restrict to these concept groups'),
  include_object_types: z.boolean().optional().describe('Default true'),
  include_relation_types: z.boolean().optional().describe('Default true'),
  include_action_types: z.boolean().optional().describe('Default true'),
};

/** kn_schema_search's `search_scope`. */
export const SEARCH_SCOPE_ARGUMENT = z
  .looseObject(SCOPE_TYPES)
  .optional()
  .describe('Which kinds of concepts to search');

/** search_schema's `search_scope`: the same plus metric types. */
export const SCHEMA_SCOPE_ARGUMENT = z
  .looseObject({ ...SCOPE_TYPES, include_metric_types: z.boolean().optional().describe('Default true') })
  .optional()
  .describe('Concept groups and which of the four concept types to search (at least one)');

export const maxConceptsArgument = (description: string) =>
  z.number().int().min(MAX_CONCEPTS.min).max(MAX_CONCEPTS.max).default(MAX_CONCEPTS.default).describe(description);

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

export const INCLUDE_LOGIC_PARAMS_ARGUMENT = z
  .boolean()
  .default(false)
  .describe('true: add each logic property with its parameter definitions and this instance’s bound values');
