import { McpController, Tool } from '@rekog/mcp-nest';
import { performance } from 'node:perf_hooks';
import { withCkbMetadata } from '../ckb-metadata';
import type { WithCkbMetadata } from '../ckb-metadata';
import { CodeGraphRagService } from '../code-graph-rag.service';
import type { GraphRagRequest, GraphRagResult } from '../code-tools.types';
import { graphRagArguments } from './code-tool-schemas';

/** MCP door of ci_graph_rag: the REST route's service and the same metadata builder. */
@McpController()
export class CiGraphRagTool {
  constructor(private readonly graphRagService: CodeGraphRagService) {}

  @Tool({
    name: 'ci_graph_rag',
    description:
      'Searches the indexed codebase for code relevant to a question and expands the hits along the code graph ' +
      '(CKB call graph/references when available, else the local import graph). Returns candidates ' +
      '{file, relevance 0-1, content, source, distance} within a token budget, plus metadata on CKB availability ' +
      '(ckb_available, ckb_fallback_reason, fallback_mode, fusion_depth). Use it to gather context before reading ' +
      'or changing code; then call ci_call_chain on a symbol from the candidates to follow its callers/callees.',
    parameters: graphRagArguments,
    annotations: { title: 'Code graph-RAG', readOnlyHint: true, openWorldHint: false },
  })
  async graphRag(args: GraphRagRequest): Promise<WithCkbMetadata<GraphRagResult>> {
    const startedAt = performance.now();
    return withCkbMetadata(await this.graphRagService.graphRag(args), startedAt);
  }
}
