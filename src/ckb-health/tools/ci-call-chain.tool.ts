import { McpController, Tool } from '@rekog/mcp-nest';
import { performance } from 'node:perf_hooks';
import { withCkbMetadata } from '../ckb-metadata';
import type { WithCkbMetadata } from '../ckb-metadata';
import { CodeCallChainService } from '../code-call-chain.service';
import type { CallChainRequest, CallChainResult } from '../code-tools.types';
import { callChainArguments } from './code-tool-schemas';

/** MCP door of ci_call_chain: the REST route's service and the same metadata builder. */
@McpController()
export class CiCallChainTool {
  constructor(private readonly callChainService: CodeCallChainService) {}

  @Tool({
    name: 'ci_call_chain',
    description:
      'Returns the definitions, callers and/or callees of a function, method or class, up to a depth, from CKB ' +
      'when available or else from a reference search over the indexed code. Each node is {symbol, file, line, ' +
      'distance}; metadata says whether CKB was used. Use after ci_graph_rag to see how a found symbol is reached.',
    parameters: callChainArguments,
    annotations: { title: 'Code call chain', readOnlyHint: true, openWorldHint: false },
  })
  async callChain(args: CallChainRequest): Promise<WithCkbMetadata<CallChainResult>> {
    const startedAt = performance.now();
    return withCkbMetadata(await this.callChainService.callChain(args), startedAt);
  }
}
