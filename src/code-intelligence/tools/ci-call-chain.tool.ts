import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { performance } from 'node:perf_hooks';
import { toolOutput, toolParameters } from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { withCkbMetadata } from '../../ckb-health/ckb-metadata';
import { CodeCallChainService } from '../code-call-chain.service';
import { CALL_CHAIN_OUTPUT, callChainArguments } from './code-tool-schemas';

const TOOL = 'ci_call_chain';

const DESCRIPTION =
  'Returns the definitions, callers and/or callees of a function, method or class, up to a depth, from CKB ' +
  'when available or else from a reference search over the indexed code. Each node is {symbol, file, line, ' +
  'distance}; metadata says whether CKB was used. Use after ci_graph_rag to see how a found symbol is reached.';

/** MCP door of ci_call_chain: the REST route's service and the same metadata builder, through the shared runner. */
@McpController()
export class CiCallChainTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly callChainService: CodeCallChainService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(callChainArguments),
    outputSchema: toolOutput(CALL_CHAIN_OUTPUT),
    annotations: readOnlyTool('Code call chain'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runWithoutNetwork({ tool: TOOL, schema: callChainArguments, args, context }, async (input) => {
      const startedAt = performance.now();
      const { symbol, direction, depth } = input;
      return withCkbMetadata(await this.callChainService.callChain({ symbol, direction, depth }), startedAt);
    });
  }
}
