import { z } from 'zod';
import { requiredText } from '../../common/http/required-text';
import { CKB_FALLBACK_REASONS } from '../../ckb-health/ckb.types';
import {
  CALL_CHAIN_DEPTH,
  CALL_DIRECTIONS,
  CODE_QUERY_MAX_LENGTH,
  FUSION_DEPTH,
  SYMBOL_MAX_LENGTH,
  SYMBOL_PATTERN,
  TOKEN_BUDGET,
} from '../code-tools.limits';

/** ci_graph_rag's own arguments. */
export const GRAPH_RAG_ARGUMENTS = {
  query: requiredText(CODE_QUERY_MAX_LENGTH).describe('What to look for in the code: words or identifiers'),
  fusion_depth: z
    .number()
    .int()
    .min(FUSION_DEPTH.min)
    .max(FUSION_DEPTH.max)
    .optional()
    .describe(
      `Graph expansion hops, ${FUSION_DEPTH.min}–${FUSION_DEPTH.max} (default ${FUSION_DEPTH.default}; 0 = keyword only)`,
    ),
  budget: z
    .number()
    .int()
    .min(TOKEN_BUDGET.min)
    .max(TOKEN_BUDGET.max)
    .optional()
    .describe(`Token budget for returned content (default ${TOKEN_BUDGET.default})`),
};

/** ci_call_chain's own arguments. */
export const CALL_CHAIN_ARGUMENTS = {
  symbol: z.string().min(1).max(SYMBOL_MAX_LENGTH).regex(SYMBOL_PATTERN).describe('Function, method or class name'),
  direction: z.enum(CALL_DIRECTIONS).optional().describe('Which side of the chain (default both)'),
  depth: z
    .number()
    .int()
    .min(CALL_CHAIN_DEPTH.min)
    .max(CALL_CHAIN_DEPTH.max)
    .optional()
    .describe(`Hops to follow, ${CALL_CHAIN_DEPTH.min}–${CALL_CHAIN_DEPTH.max} (default ${CALL_CHAIN_DEPTH.default})`),
};

/** Seed 001 §3.1's metadata as advertised in the tools' outputSchema (extra counters allowed). */
const CKB_METADATA_OUTPUT = z.looseObject({
  ckb_available: z.boolean(),
  ckb_fallback_reason: z.enum(CKB_FALLBACK_REASONS).optional(),
  ckb_last_error: z.string().optional(),
  ckb_cooldown_remaining_s: z.number().int().min(0).max(60).optional(),
  fallback_mode: z.enum(['local_graph', 'vector_only']).optional(),
  fusion_depth: z.number().int().min(0).max(5),
  total_candidates: z.number().int(),
  query_time_ms: z.number(),
});

const LOOSE_RECORD = z.looseObject({});

export const GRAPH_RAG_OUTPUT = z.looseObject({ candidates: z.array(LOOSE_RECORD), metadata: CKB_METADATA_OUTPUT });

export const CALL_CHAIN_OUTPUT = z.looseObject({
  symbol: z.string(),
  direction: z.string(),
  definitions: z.array(LOOSE_RECORD),
  callers: z.array(LOOSE_RECORD),
  callees: z.array(LOOSE_RECORD),
  metadata: CKB_METADATA_OUTPUT,
});
