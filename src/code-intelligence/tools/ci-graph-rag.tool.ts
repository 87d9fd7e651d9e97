import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { performance } from 'node:perf_hooks';
import { toolOutput, toolParameters } from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { withCkbMetadata } from '../../ckb-health/ckb-metadata';
import { CodeGraphRagService } from '../code-graph-rag.service';
import { GRAPH_RAG_OUTPUT, graphRagArguments } from './code-tool-schemas';

const TOOL = 'ci_graph_rag';

const DESCRIPTION =
  'Searches the indexed codebase for code relevant to a question and expands the hits along the code graph ' +
  '(CKB call graph/references when available, else the local import graph). Returns candidates ' +
  '{file, relevance 0-1, content, source, distance} within a token budget, plus metadata on CKB availability ' +
  '(ckb_available, ckb_fallback_reason, fallback_mode, fusion_depth). Use it to gather context before reading ' +
  'or changing code; then call ci_call_chain on a symbol from the candidates to follow its callers/callees.';

/** MCP door of ci_graph_rag: the REST route's service and the same metadata builder, through the shared runner. */
@McpController()
export class CiGraphRagTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly graphRagService: CodeGraphRagService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(graphRagArguments),
    outputSchema: toolOutput(GRAPH_RAG_OUTPUT),
    annotations: readOnlyTool('Code graph-RAG'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runWithoutNetwork({ tool: TOOL, schema: graphRagArguments, args, context }, async (input) => {
      const startedAt = performance.now();
      const { query, fusion_depth, budget } = input;
      return withCkbMetadata(await this.graphRagService.graphRag({ query, fusion_depth, budget }), startedAt);
    });
  }
}
