import * as path from 'node:path';
import { MetricsService } from '../metrics/metrics.service';
import { projectRoot } from '../project-root';
import { CkbCircuit } from './ckb-circuit';
import { CkbCodeGraph } from './ckb-code-graph';
import { CkbMetrics } from './ckb.metrics';
import { CkbPort } from './ckb.port';
import { UNKNOWN_CKB_STATE } from './ckb.types';
import { CodeCallChainService } from './code-call-chain.service';
import { CodeGraphRagService } from './code-graph-rag.service';
import { SqliteCodeIndex } from './code-index/sqlite-code-index';
import { CodeTools } from './code.tools';
import { CkbStateStore } from './state/ckb-state.store';

/** A CKB that knows one call edge: placeOrder → calculateTotal → applyDiscounts. */
class ScriptedCkb extends CkbPort {
  calls: string[] = [];
  listTools = async (): Promise<string[]> => ['searchSymbols'];
  close = async (): Promise<void> => undefined;
  callTool = async (name: string, args: Record<string, unknown>): Promise<unknown> => {
    this.calls.push(name);
    const at = (symbol: string, fileId: string, depth?: number) => ({ stableId: `sym:${symbol}`, name: symbol, location: { fileId }, depth });
    if (name === 'searchSymbols') return { symbols: String(args.query).includes('calculateTotal') ? [at('calculateTotal', 'ts/pricing/price-calculator.ts')] : [] };
    if (name === 'getCallGraph') {
      return { root: args.symbolId, callers: [at('placeOrder', '/abs/root/ts/orders/order-service.ts', 1)], callees: [at('applyDiscounts', './ts/pricing/discount-rules.ts', 1)] };
    }
    return { references: [] };
  };
}

class NullStore extends CkbStateStore {
  read = async () => ({ ...UNKNOWN_CKB_STATE });
  write = async () => undefined;
  close = async () => undefined;
}

function tools(enabled: boolean) {
  const index = new SqliteCodeIndex();
  index.rebuild(path.join(projectRoot(), 'examples', 'code'));
  const ckb = new ScriptedCkb();
  const config = {
    enabled,
    server: undefined,
    timeoutMs: 5000,
    cooldownSeconds: 60,
    probeIntervalSeconds: 0,
    simulateUnavailable: false,
    mockDelayMs: 0,
    codeRoot: undefined,
    dataDir: 'data',
    redisUrl: undefined,
  };
  const circuit = new CkbCircuit(config, ckb, new NullStore(), new CkbMetrics(new MetricsService({ enabled: true, processMetrics: false })));
  const graph = new CkbCodeGraph();
  return { ckb, tools: new CodeTools(new CodeGraphRagService(index, circuit, graph), new CodeCallChainService(index, circuit, graph)) };
}

describe('CodeTools (MCP handlers called directly)', () => {
  it('ci_graph_rag expands through CKB and attaches the metadata', async () => {
    const { tools: codeTools, ckb } = tools(true);
    const output = await codeTools.graphRag({ query: 'calculateTotal' });
    expect(output.metadata).toMatchObject({ ckb_available: true, fusion_depth: 1, total_candidates: output.metadata.total_candidates });
    expect(output.metadata.query_time_ms).toBeGreaterThanOrEqual(0);
    expect(ckb.calls).toEqual(expect.arrayContaining(['searchSymbols', 'getCallGraph', 'findReferences']));
    expect(output.candidates.map((candidate) => candidate.file)).toEqual(expect.arrayContaining(['ts/pricing/price-calculator.ts']));
  });

  it('ci_call_chain maps CKB paths (absolute, ./) onto the indexed root when they lie inside it', async () => {
    const { tools: codeTools } = tools(true);
    const output = await codeTools.callChain({ symbol: 'calculateTotal', direction: 'both' });
    expect(output.metadata).toMatchObject({ ckb_available: true, total_candidates: 2 });
    expect(output.callees).toEqual([expect.objectContaining({ symbol: 'applyDiscounts', file: 'ts/pricing/discount-rules.ts' })]);
    // An absolute path outside the code root is kept as CKB reported it.
    expect(output.callers).toEqual([expect.objectContaining({ symbol: 'placeOrder', file: '/abs/root/ts/orders/order-service.ts' })]);
  });

  it('falls back to the local graph with reason disabled', async () => {
    const { tools: codeTools, ckb } = tools(false);
    const output = await codeTools.graphRag({ query: 'renderTemplate', fusion_depth: 5 });
    expect(output.metadata).toMatchObject({
      ckb_available: false,
      ckb_fallback_reason: 'disabled',
      fallback_mode: 'local_graph',
      fusion_depth: 2,
      fusion_depth_requested: 5,
    });
    expect(ckb.calls).toEqual([]);
    const chain = await codeTools.callChain({ symbol: 'placeOrder', direction: 'callees', depth: 2 });
    expect(chain.callees.map((node) => [node.symbol, node.distance])).toEqual([
      ['calculateTotal', 1],
      ['saveOrder', 1],
      ['applyDiscounts', 2],
    ]);
  });
});
