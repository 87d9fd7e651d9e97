import { z } from 'zod';

/** ci_graph_rag arguments; the same bounds as the REST DTO. */
export const graphRagArguments = z.looseObject({
  query: z.string().trim().min(1).max(1000).describe('What to look for in the code: words or identifiers'),
  fusion_depth: z.number().int().min(0).max(5).optional().describe('Graph expansion hops, 0–5 (default 1; 0 = keyword only)'),
  budget: z.number().int().min(100).max(100000).optional().describe('Token budget for returned content (default 8000)'),
});

/** ci_call_chain arguments; the same bounds as the REST DTO. */
export const callChainArguments = z.looseObject({
  symbol: z.string().min(1).max(200).regex(/^[A-Za-z_$][\w$.]*$/).describe('Function, method or class name'),
  direction: z.enum(['callers', 'callees', 'both']).optional().describe('Which side of the chain (default both)'),
  depth: z.number().int().min(1).max(5).optional().describe('Hops to follow, 1–5 (default 2)'),
});
