import { Injectable } from '@nestjs/common';
import { CkbCircuit } from '../ckb-health/ckb-circuit';
import { CKB_MAX_DEPTH, CkbCodeGraph } from './ckb-code-graph';
import { CodeIndexPort } from './code-index/code-index.port';
import { CALL_CHAIN_DEPTH } from './code-tools.limits';
import { relativeToRoot } from './code-path';
import { RetrievalTrace, ToolOutcome } from '../ckb-health/ckb-metadata';
import { CallChainNode, CallChainRequest, CallChainResult } from './code-tools.types';
import { LocalCallGraph } from './local-call-graph';

/** `ci_call_chain` (SPEC §8): CKB's call graph when available, else a reference search over the code index. */
@Injectable()
export class CodeCallChainService {
  private readonly local: LocalCallGraph;

  constructor(
    private readonly index: CodeIndexPort,
    private readonly circuit: CkbCircuit,
    private readonly ckbGraph: CkbCodeGraph,
  ) {
    this.local = new LocalCallGraph(index);
  }

  async callChain(request: CallChainRequest): Promise<ToolOutcome<CallChainResult>> {
    const direction = request.direction ?? 'both';
    const requested = request.depth ?? CALL_CHAIN_DEPTH.default;
    const depth = Math.min(requested, CKB_MAX_DEPTH);
    const outcome = await this.circuit.run((ckb) => this.ckbGraph.callChain(ckb, request.symbol, direction, depth));
    if (outcome.ok) {
      const result = { symbol: request.symbol, direction, ...this.relativePaths(outcome.value) };
      const trace = this.trace({ available: true }, result, depth);
      if (depth < requested) {
        trace.fusionDepthRequested = requested;
        trace.warning = `depth ${requested} lowered to ${depth}: the most CKB's getCallGraph supports`;
      }
      return { result, trace };
    }
    const result = { symbol: request.symbol, direction, ...this.local.trace(request.symbol, direction, requested) };
    return { result, trace: { ...this.trace(outcome.availability, result, requested), fallbackMode: 'local_graph' } };
  }

  private trace(ckb: RetrievalTrace['ckb'], result: CallChainResult, depth: number): RetrievalTrace {
    return {
      ckb,
      fusionDepth: depth,
      totalCandidates: result.callers.length + result.callees.length,
      extra: { definitions: result.definitions.length, callers: result.callers.length, callees: result.callees.length },
    };
  }

  private relativePaths(
    chain: Omit<CallChainResult, 'symbol' | 'direction'>,
  ): Omit<CallChainResult, 'symbol' | 'direction'> {
    const root = this.index.root();
    const fix = (nodes: CallChainNode[]): CallChainNode[] =>
      nodes.map((node) => ({ ...node, file: relativeToRoot(node.file, root) ?? node.file }));
    return { definitions: fix(chain.definitions), callers: fix(chain.callers), callees: fix(chain.callees) };
  }
}
