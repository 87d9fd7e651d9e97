import { z } from 'zod';
import { CONDITION_OPERATIONS, KnCondition } from './knowledge-network.types';

/** Zod forms of the shared model for tool argument schemas (SPEC §3, §7). */

// Strict: a misspelt key (`feild`) is refused naming it, instead of surfacing later as a missing `field`.
export const KN_CONDITION: z.ZodType<KnCondition> = z.strictObject({
  // Advertised as the enum; checked by the condition compiler, whose 400 names the unsupported operation.
  operation: z
    .string()
    .meta({ enum: [...CONDITION_OPERATIONS] })
    .describe('and/or combine sub_conditions; the others compare `field` with `value`'),
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
