import { CkbConfig, MetricsConfig } from '../config';
import { MetricsService } from '../metrics/metrics.service';
import { resolveFromRoot } from '../project-root';
import { CkbCircuit } from './ckb-circuit';
import { CkbCodeGraph } from './ckb-code-graph';
import { CkbMetrics } from './ckb.metrics';
import { CkbPort } from './ckb.port';
import { CodeCallChainService } from './code-call-chain.service';
import { CodeGraphRagService } from './code-graph-rag.service';
import { CodeIndexPort } from './code-index/code-index.port';
import { SqliteCodeIndex } from './code-index/sqlite-code-index';
import { McpCkbClient } from './mcp/mcp-ckb-client';
import { createCkbStateStore } from './state/ckb-state.factory';
import { CkbStateStore } from './state/ckb-state.store';

/** The CKB adapter: the MCP client (it reports `disabled` itself through the circuit when unconfigured). */
export function createCkbPort(config: CkbConfig): CkbPort {
  return new McpCkbClient(config);
}

/** The code index, built at once from CODE_ROOT (relative to the project root) or empty without one. */
export function createCodeIndex(config: CkbConfig, codeRoot = config.codeRoot): CodeIndexPort {
  const index = new SqliteCodeIndex();
  index.rebuild(codeRoot ? resolveFromRoot(codeRoot) : undefined);
  return index;
}

export interface CodeToolServices {
  graphRag: CodeGraphRagService;
  callChain: CodeCallChainService;
  circuit: CkbCircuit;
  index: CodeIndexPort;
  close(): Promise<void>;
}

/**
 * The code tools without Nest (the CLI): the same classes the module wires, so the CLI runs the exact
 * code path of the REST route and the MCP tool, without an HTTP server's start-up cost.
 */
export function createCodeToolServices(config: CkbConfig, codeRoot?: string): CodeToolServices {
  const metricsConfig: MetricsConfig = { enabled: false, processMetrics: false };
  const ckb = createCkbPort(config);
  const store: CkbStateStore = createCkbStateStore(config);
  const circuit = new CkbCircuit(config, ckb, store, new CkbMetrics(new MetricsService(metricsConfig)));
  const index = createCodeIndex(config, codeRoot);
  const graph = new CkbCodeGraph();
  return {
    graphRag: new CodeGraphRagService(index, circuit, graph),
    callChain: new CodeCallChainService(index, circuit, graph),
    circuit,
    index,
    close: async () => {
      await Promise.all([ckb.close(), store.close()]);
    },
  };
}
