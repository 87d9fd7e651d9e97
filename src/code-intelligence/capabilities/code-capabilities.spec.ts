import { Logger } from '@nestjs/common';
import type { StandardSchemaV1 } from '@modelcontextprotocol/server';
import { MCP_TOOL_METADATA_KEY } from '@rekog/mcp-nest';
import type { McpContext } from '@rekog/mcp-nest';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ErrorPresenter } from '../../common/errors/error-presenter';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { MetricsService } from '../../metrics/metrics.service';
import { projectRoot } from '../../project-root';
import { CkbCircuit } from '../../ckb-health/ckb-circuit';
import { CkbCodeGraph } from '../ckb-code-graph';
import { CkbMetrics } from '../../ckb-health/ckb.metrics';
import { CkbPort } from '../../ckb-health/ckb.port';
import { UNKNOWN_CKB_STATE } from '../../ckb-health/ckb.types';
import type { WithCkbMetadata } from '../../ckb-health/ckb-metadata';
import type { CallChainResult, GraphRagResult } from '../code-tools.types';
import { CodeCallChainService } from '../code-call-chain.service';
import { CodeGraphRagService } from '../code-graph-rag.service';
import { SqliteCodeIndex } from '../code-index/sqlite-code-index';
import { CiCallChainTool } from './ci-call-chain.tool';
import { CiGraphRagTool } from './ci-graph-rag.tool';
import { callChainArguments, graphRagArguments } from './code-tool-schemas';
import { CkbStateStore } from '../../ckb-health/state/ckb-state.store';
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

function tools(enabled: boolean) {
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
  const metrics = new MetricsService(config.metrics);
  const runner = new McpToolRunner(PRESENTER, metrics, config.i18n, config.limits);
  const graphRag = new CiGraphRagTool(runner, new CodeGraphRagService(index, circuit, graph));
  const callChain = new CiCallChainTool(runner, new CodeCallChainService(index, circuit, graph));
  return {
    ckb,
    tools: {
      graphRag: async (args: Record<string, unknown>) =>
        structured<WithCkbMetadata<GraphRagResult>>(await graphRag.call({ response_format: 'json', ...args }, CONTEXT)),
      callChain: async (args: Record<string, unknown>) =>
        structured<WithCkbMetadata<CallChainResult>>(
          await callChain.call({ response_format: 'json', ...args }, CONTEXT),
        ),
      raw: (args: Record<string, unknown>) => graphRag.call(args, CONTEXT),
    },
  };
}

/** Presents AppExceptions by code and details (the translated texts have their own tests). */
const PRESENTER = {
  present: (error: unknown) => {
    const known = error as { definition?: { code: string; status: number }; details?: unknown };
    return {
      status: known.definition?.status ?? 500,
      body: { code: known.definition?.code ?? 'internal', details: known.details },
      headers: {},
    };
  },
} as unknown as ErrorPresenter;

const CONTEXT = { getRawRequest: () => undefined } as unknown as McpContext;

function structured<T>(result: ToolResult): T {
  if (result.isError) throw new Error(result.content[0].text);
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

describe('ci_graph_rag and ci_call_chain MCP tools (handlers called directly)', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('declares both tools as read-only with advertised input schemas; the argument schemas reject bad input', () => {
    type ToolMetadata = { name: string; annotations: { readOnlyHint: boolean }; parameters: StandardSchemaV1 };
    const graphRag = Reflect.getMetadata(MCP_TOOL_METADATA_KEY, CiGraphRagTool.prototype.call) as ToolMetadata;
    const callChain = Reflect.getMetadata(MCP_TOOL_METADATA_KEY, CiCallChainTool.prototype.call) as ToolMetadata;
    expect([graphRag.name, callChain.name]).toEqual(['ci_graph_rag', 'ci_call_chain']);
    expect([graphRag.annotations.readOnlyHint, callChain.annotations.readOnlyHint]).toEqual([true, true]);
    const advertised = (tool: ToolMetadata) =>
      (
        tool.parameters['~standard'] as unknown as { jsonSchema: { input(): { required?: string[] } } }
      ).jsonSchema.input();
    expect([advertised(graphRag).required, advertised(callChain).required]).toEqual([['query'], ['symbol']]);
    expect(graphRagArguments.safeParse({ query: 'x', fusion_depth: 2, kn_id: 'kept' }).success).toBe(true);
    expect(graphRagArguments.safeParse({ query: '', fusion_depth: 9 }).success).toBe(false);
    expect(callChainArguments.safeParse({ symbol: '../etc/passwd' }).success).toBe(false);
  });

  it('bad arguments are isError results carrying the validation error body', async () => {
    const { tools: codeTools, ckb } = tools(true);
    const result = await codeTools.raw({ query: 'x', fusion_depth: 9 });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toMatchObject({ code: 'agentRetrieval.BadRequest.ValidationRange' });
    expect(calledTools(ckb)).toEqual([]);
  });

  it('ci_graph_rag expands through CKB and attaches the metadata', async () => {
    const { tools: codeTools, ckb } = tools(true);
    const startedAt = performance.now();
    const output = await codeTools.graphRag({ query: 'calculateTotal' });
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
    // The tool times the service call inside this one and rounds to whole milliseconds.
    expect(Number.isInteger(output.metadata.query_time_ms)).toBe(true);
    expect(output.metadata.query_time_ms).toBeGreaterThanOrEqual(0);
    expect(output.metadata.query_time_ms).toBeLessThanOrEqual(Math.ceil(wallMs));
    expect(calledTools(ckb)).toEqual(expect.arrayContaining(['searchSymbols', 'getCallGraph', 'findReferences']));
    expect(output.candidates.map((candidate) => candidate.file)).toEqual(
      expect.arrayContaining(['ts/pricing/price-calculator.ts']),
    );
  });

  it('ci_call_chain maps CKB paths (absolute, ./) onto the indexed root when they lie inside it', async () => {
    const { tools: codeTools } = tools(true);
    const output = await codeTools.callChain({ symbol: 'calculateTotal', direction: 'both' });
    expect(output.metadata).toMatchObject({ ckb_available: true, total_candidates: 2 });
    expect(output.callees).toEqual([
      expect.objectContaining({ symbol: 'applyDiscounts', file: 'ts/pricing/discount-rules.ts' }),
    ]);
    // An absolute path outside the code root is kept as CKB reported it.
    expect(output.callers).toEqual([
      expect.objectContaining({ symbol: 'placeOrder', file: '/abs/root/ts/orders/order-service.ts' }),
    ]);
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
    expect(calledTools(ckb)).toEqual([]);
    const chain = await codeTools.callChain({ symbol: 'placeOrder', direction: 'callees', depth: 2 });
    expect(chain.callees.map((node) => [node.symbol, node.distance])).toEqual([
      ['calculateTotal', 1],
      ['saveOrder', 1],
      ['applyDiscounts', 2],
    ]);
    const method = await codeTools.callChain({ symbol: 'Warehouse.take', direction: 'both' });
    expect(method.callees.map((node) => node.symbol)).toEqual(['convert_units']);
    expect(method.callers.map((node) => node.symbol)).toEqual(['reserve_stock']);
  });
});
