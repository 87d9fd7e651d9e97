import { Logger } from '@nestjs/common';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CapabilityContext, CapabilityDefinition } from '../../capabilities/capability';
import { bindCapability } from '../../capabilities/capability-catalog';
import { advertisedInput, parseInput } from '../../capabilities/capability-input';
import { renderResult } from '../../capabilities/capability-text';
import { CkbCircuit } from '../../ckb-health/ckb-circuit';
import type { WithCkbMetadata } from '../../ckb-health/ckb-metadata';
import { CkbMetrics } from '../../ckb-health/ckb.metrics';
import { CkbPort } from '../../ckb-health/ckb.port';
import { UNKNOWN_CKB_STATE } from '../../ckb-health/ckb.types';
import { CkbStateStore } from '../../ckb-health/state/ckb-state.store';
import { AppException } from '../../common/errors/app.exception';
import { ValidationErrors } from '../../common/errors/error-codes';
import { LocalizedDetails } from '../../common/errors/localized-details';
import { MetricsService } from '../../metrics/metrics.service';
import { projectRoot } from '../../project-root';
import { CkbCodeGraph } from '../ckb-code-graph';
import { CodeCallChainService } from '../code-call-chain.service';
import { CodeGraphRagService } from '../code-graph-rag.service';
import { SqliteCodeIndex } from '../code-index/sqlite-code-index';
import type { CallChainResult, GraphRagResult } from '../code-tools.types';
import { CI_CALL_CHAIN } from './ci-call-chain.capability';
import { CI_GRAPH_RAG } from './ci-graph-rag.capability';
import { CODE_CAPABILITIES } from './index';
import { testConfig } from '../../../test/support/unit/config';
import { mockPort } from '../../../test/support/unit/mocks';

/** A CKB that knows one call edge: placeOrder → calculateTotal → applyDiscounts. */
function scriptedCkb(): jest.Mocked<CkbPort> {
  const at = (symbol: string, fileId: string, depth?: number) => ({
    stableId: `sym:${symbol}`,
    name: symbol,
    location: { fileId },
    depth,
  });
  return mockPort(CkbPort, {
    listTools: async () => ['searchSymbols'],
    close: async () => undefined,
    callTool: async (name: string, args: Record<string, unknown>) => {
      if (name === 'searchSymbols')
        return {
          symbols: String(args.query).includes('calculateTotal')
            ? [at('calculateTotal', 'ts/pricing/price-calculator.ts')]
            : [],
        };
      if (name === 'getCallGraph') {
        return {
          root: args.symbolId,
          callers: [at('placeOrder', '/abs/root/ts/orders/order-service.ts', 1)],
          callees: [at('applyDiscounts', './ts/pricing/discount-rules.ts', 1)],
        };
      }
      return { references: [] };
    },
  });
}

/** The CKB tools called, in order. */
const calledTools = (ckb: jest.Mocked<CkbPort>): string[] => ckb.callTool.mock.calls.map(([name]) => name);

/** A state store that never remembers anything. */
const nullStore = () =>
  mockPort(CkbStateStore, {
    read: async () => ({ ...UNKNOWN_CKB_STATE }),
    write: async () => undefined,
    close: async () => undefined,
  });

/** The code capabilities don't read their call's context; this one names a REST call. */
const CONTEXT: CapabilityContext = {
  door: 'rest',
  principal: { id: 'alice', type: 'user' },
  knId: '',
  headers: {},
  language: 'en-US',
  seesNetwork: () => true,
};

/** Validates the arguments as every door does, then runs the capability over the real services. */
function capabilities(enabled: boolean) {
  const index = new SqliteCodeIndex();
  index.rebuild(path.join(projectRoot(), 'examples', 'code'));
  const ckb = scriptedCkb();
  const config = testConfig({
    CKB_ENABLED: String(enabled),
    CKB_COMMAND: 'ckb mcp',
    CKB_PROBE_INTERVAL_S: '0',
    DEFAULT_LANGUAGE: 'en-US',
  });
  const circuit = new CkbCircuit(config.ckb, ckb, nullStore(), new CkbMetrics(new MetricsService(config.metrics)));
  const graph = new CkbCodeGraph();
  const graphRag = bindCapability(CI_GRAPH_RAG as CapabilityDefinition, new CodeGraphRagService(index, circuit, graph));
  const callChain = bindCapability(
    CI_CALL_CHAIN as CapabilityDefinition,
    new CodeCallChainService(index, circuit, graph),
  );
  return {
    ckb,
    graphRag: async (args: Record<string, unknown>) =>
      (await graphRag.run(parseInput(CI_GRAPH_RAG.input, args), CONTEXT)) as WithCkbMetadata<GraphRagResult>,
    callChain: async (args: Record<string, unknown>) =>
      (await callChain.run(parseInput(CI_CALL_CHAIN.input, args), CONTEXT)) as WithCkbMetadata<CallChainResult>,
  };
}

/** The exception validation throws for `args`, failing the test when they parse. */
function invalid(definition: { input: CapabilityDefinition['input'] }, args: Record<string, unknown>): AppException {
  let caught: unknown;
  try {
    parseInput(definition.input, args);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppException);
  return caught as AppException;
}

describe('ci_graph_rag and ci_call_chain capabilities (run over the real services)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('defines both as read-only, needing no network, each with its REST twin on the public prefix', () => {
    expect(CODE_CAPABILITIES).toEqual([CI_GRAPH_RAG, CI_CALL_CHAIN]);
    expect(
      CODE_CAPABILITIES.map(({ name, annotations, network, governance, rest, doors }) => [
        name,
        annotations.readOnly,
        network,
        governance,
        rest,
        doors,
      ]),
    ).toEqual([
      [
        'ci_graph_rag',
        true,
        'none',
        'read',
        { method: 'POST', path: 'code/graph_rag', prefixes: 'public' },
        ['rest', 'mcp', 'chat', 'tool-api'],
      ],
      [
        'ci_call_chain',
        true,
        'none',
        'read',
        { method: 'POST', path: 'code/call_chain', prefixes: 'public' },
        ['rest', 'mcp', 'chat', 'tool-api'],
      ],
    ]);
  });

  it('advertises the required arguments and accepts what the seed allows', () => {
    expect([advertisedInput(CI_GRAPH_RAG).required, advertisedInput(CI_CALL_CHAIN).required]).toEqual([
      ['query'],
      ['symbol'],
    ]);
    expect(parseInput(CI_GRAPH_RAG.input, { query: ' x ', fusion_depth: 2, kn_id: 'kept' })).toEqual({
      query: 'x',
      fusion_depth: 2,
      kn_id: 'kept',
    });
    expect(parseInput(CI_CALL_CHAIN.input, { symbol: 'Warehouse.take', direction: 'callers', depth: 5 })).toEqual({
      symbol: 'Warehouse.take',
      direction: 'callers',
      depth: 5,
    });
  });

  it('refuses bad arguments with the documented validation errors', () => {
    const tooDeep = invalid(CI_GRAPH_RAG, { query: 'x', fusion_depth: 9 });
    expect([tooDeep.definition, tooDeep.details]).toEqual([
      ValidationErrors.Range,
      new LocalizedDetails('validation.max', { field: 'fusion_depth', limit: '5' }),
    ]);
    const missing = invalid(CI_GRAPH_RAG, {});
    expect([missing.definition, missing.message]).toEqual([ValidationErrors.Required, 'query is required']);
    expect(invalid(CI_GRAPH_RAG, { query: 'x', budget: 99 }).definition).toBe(ValidationErrors.Range);
    expect(invalid(CI_CALL_CHAIN, { symbol: '../etc/passwd' }).definition).toBe(ValidationErrors.Format);
    const direction = invalid(CI_CALL_CHAIN, { symbol: 'placeOrder', direction: 'up' });
    expect([direction.definition, direction.details]).toEqual([
      ValidationErrors.Enum,
      new LocalizedDetails('validation.enum', { field: 'direction', options: 'callers, callees, both' }),
    ]);
  });

  it('ci_graph_rag expands through CKB and attaches the metadata', async () => {
    const { graphRag, ckb } = capabilities(true);
    const startedAt = performance.now();
    const output = await graphRag({ query: 'calculateTotal' });
    const wallMs = performance.now() - startedAt;
    // 4 keyword chunks and 2 CKB neighbours, one of them (placeOrder) also a keyword hit.
    expect(output.metadata).toMatchObject({
      ckb_available: true,
      fusion_depth: 1,
      total_candidates: 5,
      keyword_candidates: 4,
      graph_candidates: 2,
    });
    expect(output.candidates).toHaveLength(5);
    expect(
      output.candidates.filter((candidate) => candidate.source === 'ckb').map((candidate) => candidate.file),
    ).toEqual(['ts/pricing/discount-rules.ts']);
    // The capability times the service call inside this one and rounds to whole milliseconds.
    expect(Number.isInteger(output.metadata.query_time_ms)).toBe(true);
    expect(output.metadata.query_time_ms).toBeGreaterThanOrEqual(0);
    expect(output.metadata.query_time_ms).toBeLessThanOrEqual(Math.ceil(wallMs));
    expect(calledTools(ckb)).toEqual(expect.arrayContaining(['searchSymbols', 'getCallGraph', 'findReferences']));
    expect(output.candidates.map((candidate) => candidate.file)).toEqual(
      expect.arrayContaining(['ts/pricing/price-calculator.ts']),
    );
    // What every door advertises as the output schema holds, and JSON text is the same value.
    expect(CI_GRAPH_RAG.output.safeParse(output).success).toBe(true);
    expect(JSON.parse(renderResult(CI_GRAPH_RAG as CapabilityDefinition, output, 'json').blocks[0])).toEqual(output);
  });

  it('ci_call_chain maps CKB paths (absolute, ./) onto the indexed root when they lie inside it', async () => {
    const { callChain } = capabilities(true);
    const output = await callChain({ symbol: 'calculateTotal', direction: 'both' });
    expect(output.metadata).toMatchObject({ ckb_available: true, total_candidates: 2 });
    expect(output.callees).toEqual([
      expect.objectContaining({ symbol: 'applyDiscounts', file: 'ts/pricing/discount-rules.ts' }),
    ]);
    // An absolute path outside the code root is kept as CKB reported it.
    expect(output.callers).toEqual([
      expect.objectContaining({ symbol: 'placeOrder', file: '/abs/root/ts/orders/order-service.ts' }),
    ]);
    expect(CI_CALL_CHAIN.output.safeParse(output).success).toBe(true);
  });

  it('fusion_depth 0 with a healthy CKB: ckb_available false (seed 001 REQ-MCP-001), CKB not contacted', async () => {
    const { graphRag, ckb } = capabilities(true);
    const output = await graphRag({ query: 'calculateTotal', fusion_depth: 0 });
    expect(output.metadata).toMatchObject({
      ckb_available: false,
      ckb_fallback_reason: 'disabled',
      fallback_mode: 'vector_only',
      fusion_depth: 0,
    });
    expect(output.candidates.every((candidate) => candidate.source === 'keyword')).toBe(true);
    expect(ckb.listTools).not.toHaveBeenCalled();
    expect(calledTools(ckb)).toEqual([]);
  });

  it('never reports ckb_available true beside a fallback_mode', async () => {
    const { graphRag } = capabilities(true);
    for (const fusion_depth of [0, 1, 3]) {
      const { metadata } = await graphRag({ query: 'calculateTotal', fusion_depth });
      expect([metadata.ckb_available, metadata.fallback_mode]).not.toEqual([true, expect.anything()]);
    }
  });

  it('falls back to the local graph with reason disabled', async () => {
    const { graphRag, callChain, ckb } = capabilities(false);
    const output = await graphRag({ query: 'renderTemplate', fusion_depth: 5 });
    expect(output.metadata).toMatchObject({
      ckb_available: false,
      ckb_fallback_reason: 'disabled',
      fallback_mode: 'local_graph',
      fusion_depth: 2,
      fusion_depth_requested: 5,
    });
    expect(calledTools(ckb)).toEqual([]);
    const chain = await callChain({ symbol: 'placeOrder', direction: 'callees', depth: 2 });
    expect(chain.callees.map((node) => [node.symbol, node.distance])).toEqual([
      ['calculateTotal', 1],
      ['saveOrder', 1],
      ['applyDiscounts', 2],
    ]);
    const method = await callChain({ symbol: 'Warehouse.take', direction: 'both' });
    expect(method.callees.map((node) => node.symbol)).toEqual(['convert_units']);
    expect(method.callers.map((node) => node.symbol)).toEqual(['reserve_stock']);
  });
});
