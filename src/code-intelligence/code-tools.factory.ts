import { CkbCircuit } from '../ckb-health/ckb-circuit';
import { createStandaloneCkb } from '../ckb-health/ckb.factory';
import { CkbConfig, RedisConfig } from '../config';
import { resolveFromRoot } from '../project-root';
import { CkbCodeGraph } from './ckb-code-graph';
import { CodeCallChainService } from './code-call-chain.service';
import { CodeGraphRagService } from './code-graph-rag.service';
import { CodeIndexPort } from './code-index/code-index.port';
import { SqliteCodeIndex } from './code-index/sqlite-code-index';

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
export function createCodeToolServices(
  config: CkbConfig,
  redisConfig: RedisConfig,
  codeRoot?: string,
): CodeToolServices {
  const ckb = createStandaloneCkb(config, redisConfig);
  const index = createCodeIndex(config, codeRoot);
  const graph = new CkbCodeGraph();
  return {
    graphRag: new CodeGraphRagService(index, ckb.circuit, graph),
    callChain: new CodeCallChainService(index, ckb.circuit, graph),
    circuit: ckb.circuit,
    index,
    close: () => ckb.close(),
  };
}
