/**
 * ci_graph_rag and ci_call_chain over MCP (official SDK client) on examples/code: the same answers
 * as the REST code routes, seed 001's metadata validating against its JSON Schema, TOON by default,
 * argument errors as isError results. CKB off (not configured) and through the CKB stand-in.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { decodeToon } from '../src/common/response-format/toon';
import { startTestApp, TestApp } from './support/app';
import { expectSeedMetadata } from './support/ckb-schema';
import { CkbStandin } from './support/ckb-standin';
import { freshDir } from './support/graph-rag-cli';
import { connectV1, errorBodyOf, textOf, ToolCallResult } from './support/mcp-clients';

const CODE_REST = '/api/agent-retrieval/v1/code';

type Output = Record<string, unknown> & { metadata: Record<string, unknown> };

interface ListedTool {
  name: string;
  inputSchema: { required?: string[]; properties?: Record<string, unknown> };
  outputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean };
}

async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Output> {
  const result = (await client.callTool({ name, arguments: args })) as ToolCallResult;
  if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
  const output = result.structuredContent as Output;
  expectSeedMetadata(output.metadata);
  return output;
}

/** query_time_ms is a timing: equal answers differ only there. */
function withoutTiming(output: Output): Output {
  return { ...output, metadata: { ...output.metadata, query_time_ms: 0 } };
}

describe('code tools over MCP (e2e)', () => {
  describe('CKB not configured', () => {
    let app: TestApp;
    let client: Client;

    beforeAll(async () => {
      app = await startTestApp({ CODE_ROOT: 'examples/code', DATA_DIR: freshDir('mcp-code-') });
      client = await connectV1(app.url);
    });

    afterAll(async () => {
      await client?.close();
      await app.close();
    });

    it('lists both tools, read-only, with their required arguments and output schemas', async () => {
      const { tools } = await client.listTools();
      const byName = new Map((tools as ListedTool[]).map((tool) => [tool.name, tool]));
      expect(byName.get('ci_graph_rag')?.inputSchema.required).toEqual(['query']);
      expect(byName.get('ci_call_chain')?.inputSchema.required).toEqual(['symbol']);
      const outputs: Record<string, string[]> = {
        ci_graph_rag: ['candidates', 'metadata'],
        ci_call_chain: ['symbol', 'direction', 'definitions', 'callers', 'callees', 'metadata'],
      };
      for (const [name, required] of Object.entries(outputs)) {
        expect(byName.get(name)?.annotations?.readOnlyHint).toBe(true);
        expect(byName.get(name)?.outputSchema).toMatchObject({
          type: 'object',
          required,
          // A listed output schema names the answer's fields and their kinds; the inner shape is in OpenAPI.
          properties: { metadata: { type: 'object' } },
        });
        expect(byName.get(name)?.inputSchema.properties?.response_format).toMatchObject({
          type: 'string',
          enum: ['json', 'toon'],
        });
      }
    });

    it('ci_graph_rag: local import graph with ckb_fallback_reason disabled, TOON text by default', async () => {
      const result = (await client.callTool({
        name: 'ci_graph_rag',
        arguments: { query: 'convert_units' },
      })) as ToolCallResult;
      const output = result.structuredContent as Output;
      expectSeedMetadata(output.metadata);
      expect(output.metadata).toMatchObject({
        ckb_available: false,
        ckb_fallback_reason: 'disabled',
        fallback_mode: 'local_graph',
        fusion_depth: 1,
      });
      expect(output.candidates).toContainEqual(
        expect.objectContaining({ file: 'python/inventory/stock.py', source: 'local_graph', distance: 1 }),
      );
      expect(decodeToon(textOf(result))).toEqual(result.structuredContent);
    });

    it('ci_call_chain: callers and callees from the index alone, metadata valid', async () => {
      const output = await callTool(client, 'ci_call_chain', {
        symbol: 'sendEmail',
        depth: 2,
        response_format: 'json',
      });
      expect(output.metadata).toMatchObject({ ckb_available: false, ckb_fallback_reason: 'disabled', fusion_depth: 2 });
      expect(output.callers).toEqual([expect.objectContaining({ symbol: 'notifyCustomer', distance: 1 })]);
      expect(output.callees).toEqual([expect.objectContaining({ symbol: 'renderTemplate', distance: 1 })]);
    });

    it.each([
      ['ci_graph_rag', 'graph_rag', { query: 'order total', fusion_depth: 2, budget: 2000 }],
      ['ci_call_chain', 'call_chain', { symbol: 'placeOrder', direction: 'callees', depth: 2 }],
    ])('%s answers what POST /code/%s answers for the same input', async (tool, route, args) => {
      const viaMcp = await callTool(client, tool, args);
      const viaRest = await request(app.url).post(`${CODE_REST}/${route}`).send(args).expect(200);
      expect(withoutTiming(viaMcp)).toEqual(withoutTiming(viaRest.body as Output));
    });

    it.each([
      ['ci_graph_rag', {}, 'agentRetrieval.BadRequest.ValidationRequired', 'query is required'],
      ['ci_graph_rag', { query: 'x', fusion_depth: 9 }, 'agentRetrieval.BadRequest.ValidationRange', /fusion_depth/],
      [
        'ci_graph_rag',
        { query: 'x', response_format: 'xml' },
        'agentRetrieval.BadRequest.InvalidResponseFormat',
        expect.anything(),
      ],
      ['ci_call_chain', { symbol: '../../etc/passwd' }, 'agentRetrieval.BadRequest.ValidationFormat', /symbol/],
      [
        'ci_call_chain',
        { symbol: 'x', direction: 'sideways' },
        'agentRetrieval.BadRequest.ValidationEnum',
        /direction.*callers, callees, both/,
      ],
    ])('%s with %j is an isError result with %s', async (tool, args, code, details) => {
      const result = (await client.callTool({ name: tool, arguments: args })) as ToolCallResult;
      const body = errorBodyOf(result);
      expect(body.code).toBe(code);
      expect(body.details).toEqual(
        typeof details === 'string' ? details : details instanceof RegExp ? expect.stringMatching(details) : details,
      );
    });

    it('counts the code tool calls in /metrics', async () => {
      const metrics = await request(app.url).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/agent_retrieval_mcp_tool_calls_total\{tool="ci_graph_rag",outcome="ok"\} [1-9]/);
      expect(metrics.text).toMatch(
        /agent_retrieval_mcp_tool_calls_total\{tool="ci_call_chain",outcome="error"\} [1-9]/,
      );
    });
  });

  describe('with the CKB stand-in', () => {
    const standin = new CkbStandin();
    let app: TestApp;
    let client: Client;

    beforeAll(async () => {
      app = await startTestApp({
        CKB_COMMAND: standin.command,
        CODE_ROOT: 'examples/code',
        DATA_DIR: freshDir('mcp-code-ckb-'),
        CKB_PROBE_INTERVAL_S: '0',
      });
      client = await connectV1(app.url);
    });

    afterAll(async () => {
      await client?.close();
      await app.close();
    });

    it('ci_graph_rag and ci_call_chain expand through CKB (ckb_available true, no fallback_mode)', async () => {
      const rag = await callTool(client, 'ci_graph_rag', { query: 'applyDiscounts', fusion_depth: 2 });
      expect(rag.metadata).toMatchObject({ ckb_available: true, fusion_depth: 2 });
      expect(rag.metadata).not.toHaveProperty('fallback_mode');
      expect(rag.candidates).toContainEqual(
        expect.objectContaining({ file: 'ts/orders/order-service.ts', source: 'ckb', distance: 1 }),
      );
      const chain = await callTool(client, 'ci_call_chain', { symbol: 'calculateTotal' });
      expect(chain.metadata).toMatchObject({ ckb_available: true, total_candidates: 2 });
      expect(chain.callers).toEqual([expect.objectContaining({ symbol: 'placeOrder', distance: 1 })]);
    });
  });
});
