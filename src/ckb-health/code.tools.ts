import { McpController, Tool } from '@rekog/mcp-nest';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { withCkbMetadata } from './ckb-metadata';
import type { WithCkbMetadata } from './ckb-metadata';
import { CodeCallChainService } from './code-call-chain.service';
import { CodeGraphRagService } from './code-graph-rag.service';
import type { CallChainRequest, CallChainResult, GraphRagRequest, GraphRagResult } from './code-tools.types';

const graphRagParameters = z.looseObject({
  query: z.string().trim().min(1).max(1000).describe('What to look for in the code: words or identifiers'),
  fusion_depth: z.number().int().min(0).max(5).optional().describe('Graph expansion hops, 0–5 (default 1; 0 = keyword only)'),
  budget: z.number().int().min(100).max(100000).optional().describe('Token budget for returned content (default 8000)'),
});

const callChainParameters = z.looseObject({
  symbol: z.string().min(1).max(200).regex(/^[A-Za-z_$][\w$.]*$/).describe('Function, method or class name'),
  direction: z.enum(['callers', 'callees', 'both']).optional().describe('Which side of the chain (default both)'),
  depth: z.number().int().min(1).max(5).optional().describe('Hops to follow, 1–5 (default 2)'),
});

/** MCP doors of the code tools; same services and metadata builder as REST and the CLI. */
@McpController()
export class CodeTools {
  constructor(
    private readonly graphRagService: CodeGraphRagService,
    private readonly callChainService: CodeCallChainService,
  ) {}

  @Tool({
    name: 'ci_graph_rag',
    description:
      'Searches the indexed codebase for code relevant to a question and expands the hits along the code graph ' +
      '(CKB call graph/references when available, else the local import graph). Returns candidates ' +
      '{file, relevance 0-1, content, source, distance} within a token budget, plus metadata on CKB availability ' +
      '(ckb_available, ckb_fallback_reason, fallback_mode, fusion_depth). Use it to gather context before reading ' +
      'or changing code; then call ci_call_chain on a symbol from the candidates to follow its callers/callees.',
    parameters: graphRagParameters,
    annotations: { title: 'Code graph-RAG', readOnlyHint: true, openWorldHint: false },
  })
  async graphRag(args: GraphRagRequest): Promise<WithCkbMetadata<GraphRagResult>> {
    const startedAt = performance.now();
    return withCkbMetadata(await this.graphRagService.graphRag(args), startedAt);
  }

  @Tool({
    name: 'ci_call_chain',
    description:
      'Returns the definitions, callers and/or callees of a function, method or class, up to a depth, from CKB ' +
      'when available or else from a reference search over the indexed code. Each node is {symbol, file, line, ' +
      'distance}; metadata says whether CKB was used. Use after ci_graph_rag to see how a found symbol is reached.',
    parameters: callChainParameters,
    annotations: { title: 'Code call chain', readOnlyHint: true, openWorldHint: false },
  })
  async callChain(args: CallChainRequest): Promise<WithCkbMetadata<CallChainResult>> {
    const startedAt = performance.now();
    return withCkbMetadata(await this.callChainService.callChain(args), startedAt);
  }
}
