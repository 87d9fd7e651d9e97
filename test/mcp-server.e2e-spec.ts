import { McpError } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { KnSearchService } from '../src/knsearch/knsearch.service';
import { startTestApp, TestApp } from './support/app';
import {
  answeringKnId,
  connectV1,
  connectV2,
  errorBodyOf,
  KN_ID_REQUIRED,
  MCP_PATH,
  textOf,
  ToolCallResult,
} from './support/mcp-clients';

const TOOLS = [
  'get_action_info',
  'kn_schema_search',
  'kn_search',
  'query_instance_subgraph',
  'query_object_instance',
  'resolve_logic_properties',
];

const REQUIRED: Record<string, string[]> = {
  kn_schema_search: ['query'],
  kn_search: ['query'],
  query_object_instance: ['ot_id'],
  query_instance_subgraph: ['relation_type_paths'],
  resolve_logic_properties: ['ot_id', 'query', '_instance_identities', 'properties'],
  get_action_info: ['at_id'],
};

/** Top-level fields each tool's outputSchema requires of its structuredContent. */
const OUTPUT_REQUIRED: Record<string, string[]> = {
  kn_schema_search: ['concepts'],
  kn_search: ['object_types', 'relation_types', 'action_types'],
  query_object_instance: ['datas'],
  query_instance_subgraph: ['entries'],
  resolve_logic_properties: ['datas'],
  get_action_info: ['headers', '_dynamic_tools'],
};

const KN_REST = '/api/agent-retrieval/v1/kn';
const RPC_HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { properties?: Record<string, { default?: unknown; enum?: unknown[] }>; required?: string[] };
  outputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean };
}

/** The six knowledge-network tools; other features (code graph-RAG, knowledge base) may add more. */
function expectSixTools(listed: ListedTool[]): void {
  expect(listed.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOLS));
  for (const tool of listed.filter((candidate) => TOOLS.includes(candidate.name))) {
    expect(tool.inputSchema.required?.sort()).toEqual([...REQUIRED[tool.name]].sort());
    expect(tool.inputSchema.properties?.kn_id).toMatchObject({
      type: 'string',
      description: expect.stringContaining('X-Kn-ID'),
    });
    expect(tool.inputSchema.properties?.response_format?.enum).toEqual(['json', 'toon']);
    expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tool.outputSchema).toMatchObject({
      type: 'object',
      required: OUTPUT_REQUIRED[tool.name],
      properties: expect.any(Object),
    });
    expect(tool.description?.length).toBeGreaterThan(200);
  }
}

/** concept_id of each recalled concept of one kind (object_types, relation_types) in a kn_search result. */
function conceptIds(result: ToolCallResult, kind: string): unknown[] {
  const concepts = (result.structuredContent as Record<string, { concept_id: string }[]>)[kind] ?? [];
  return concepts.map((concept) => concept.concept_id);
}

describe('MCP server (e2e)', () => {
  let app: TestApp;
  let port: string;

  beforeAll(async () => {
    app = await startTestApp();
    port = new URL(app.url).port;
  });

  afterAll(async () => {
    await app.close();
  });

  it('SDK 1.x client: initialize names the server and tools/list shows the six tools with schemas', async () => {
    const client = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    expect(client.getServerVersion()?.name).toBe('agent-retrieval');
    const { tools } = await client.listTools();
    expectSixTools(tools as ListedTool[]);
    const search = tools.find((tool) => tool.name === 'kn_search')!;
    expect(search.inputSchema.properties).toMatchObject({
      only_schema: { default: false },
      enable_rerank: { default: true },
      // One schema for every door: the default (toon for MCP text, json for REST) is the door's, not the schema's.
      response_format: { enum: ['json', 'toon'] },
    });
    const instances = tools.find((tool) => tool.name === 'query_object_instance')!;
    expect(instances.inputSchema.properties?.limit).toMatchObject({ minimum: 1, maximum: 10000, default: 10 });
    await client.close();
  });

  it.each([
    ['legacy (2025-11-25)', false],
    ['modern (2026-07-28)', true],
  ])('SDK 2.x client, %s era: lists the six tools and calls one', async (_era, modern) => {
    const client = await connectV2(app.url, { 'X-Kn-ID': 'clinic' }, modern);
    expect(client.getNegotiatedProtocolVersion()).toBe(modern ? '2026-07-28' : '2025-11-25');
    expect(client.getServerVersion()?.name).toBe('agent-retrieval');
    const { tools } = await client.listTools();
    expectSixTools(tools as ListedTool[]);
    const result = (await client.callTool({ name: 'kn_search', arguments: { query: '糖尿病' } })) as ToolCallResult;
    expect(answeringKnId(result)).toBe('clinic');
    expect(result.isError).toBeUndefined();
    const viaRest = await request(app.url)
      .post(`${KN_REST}/kn_search`)
      .set('X-Kn-ID', 'clinic')
      .send({ query: '糖尿病' })
      .expect(200);
    expect(result.structuredContent).toEqual(viaRest.body);
    expect(conceptIds(result, 'object_types')).toContain('diagnosis');
    await client.close();
  });

  it('a service failure is an isError result whose text is the translated error body', async () => {
    const client = await connectV1(app.url, { 'X-Kn-ID': 'no-such-network', 'X-Language': 'en-US' });
    const result = (await client.callTool({ name: 'kn_search', arguments: { query: 'patients' } })) as ToolCallResult;
    const body = errorBodyOf(result);
    const viaRest = await request(app.url)
      .post(`${KN_REST}/kn_search`)
      .set({ 'X-Kn-ID': 'no-such-network', 'X-Language': 'en-US' })
      .send({ query: 'patients' })
      .expect(404);
    expect(body).toEqual(viaRest.body);
    expect(body).toMatchObject({
      code: 'agentRetrieval.NotFound.KnowledgeNetworkNotFound',
      description: expect.stringMatching(/[A-Za-z]/),
    });
    expect(body.description).not.toMatch(/[\u4e00-\u9fff]/);
    expect(result._meta?.['agent-retrieval/error_code']).toBe('agentRetrieval.NotFound.KnowledgeNetworkNotFound');
    expect(Object.keys(body).sort()).toEqual(['code', 'description', 'details', 'link', 'solution']);
    expect(result._meta?.['agent-retrieval/request_id']).toEqual(expect.any(String));
    await client.close();
  });

  it('the kn_id argument overrides the X-Kn-ID header (service sees the argument)', async () => {
    const service = app.app.get(KnSearchService);
    const spy = jest.spyOn(service, 'knSearch');
    const client = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    try {
      const overridden = (await client.callTool({
        name: 'kn_search',
        arguments: { query: 'x', kn_id: 'no-such-network' },
      })) as ToolCallResult;
      expect(answeringKnId(overridden)).toBe('no-such-network');
      expect(errorBodyOf(overridden).code).toBe('agentRetrieval.NotFound.KnowledgeNetworkNotFound');
      const fromHeader = (await client.callTool({ name: 'kn_search', arguments: { query: 'x' } })) as ToolCallResult;
      expect(answeringKnId(fromHeader)).toBe('clinic');
      expect(fromHeader.isError).toBeUndefined();
      expect(spy.mock.calls.map(([input]) => input.kn_id)).toEqual(['no-such-network', 'clinic']);
    } finally {
      spy.mockRestore();
      await client.close();
    }
  });

  it('without X-Kn-ID or kn_id every tool answers the documented kn_id text', async () => {
    const client = await connectV1(app.url);
    for (const name of TOOLS) {
      const result = (await client.callTool({ name, arguments: { query: 'x' } })) as ToolCallResult;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(KN_ID_REQUIRED);
      expect(errorBodyOf(result)).toMatchObject({
        code: 'agentRetrieval.BadRequest.ValidationRequired',
        details: KN_ID_REQUIRED,
      });
    }
    await client.close();
  });

  it('missing or blank query, bad limits and missing ids are tool errors naming the argument', async () => {
    const client = await connectV1(app.url, { 'X-Kn-ID': 'clinic', 'X-Language': 'en-US' });
    const call = async (name: string, args: Record<string, unknown>) =>
      errorBodyOf((await client.callTool({ name, arguments: args })) as ToolCallResult);
    expect((await call('kn_search', {})).details).toBe('query is required');
    expect((await call('kn_search', { query: '   ' })).details).toBe('query is required');
    expect((await call('kn_schema_search', {})).details).toBe('query is required');
    const resolve = { ot_id: 'patient', _instance_identities: [{ id: 1 }], properties: ['visits'] };
    expect((await call('resolve_logic_properties', resolve)).details).toBe('query is required');
    expect(await call('query_object_instance', {})).toMatchObject({ details: 'ot_id is required' });
    const tooMany = await call('query_object_instance', { ot_id: 'patient', limit: 10001 });
    expect(tooMany.code).toBe('agentRetrieval.BadRequest.ValidationRange');
    expect(tooMany.details).toBe('Parameter limit must be less than or equal to 10000');
    const properties = Array.from({ length: 101 }, (_, i) => `p${i}`);
    const tooManyProperties = await call('resolve_logic_properties', { ...resolve, query: 'x', properties });
    expect(tooManyProperties.code).toBe('agentRetrieval.BadRequest.ValidationRange');
    expect(tooManyProperties.details).toBe('Parameter properties must contain at most 100 items');
    const badPaths = await call('query_instance_subgraph', { relation_type_paths: 'DROP TABLE x' });
    expect(badPaths.code).toBe('agentRetrieval.BadRequest.ValidationType');
    await client.close();
  });

  it('response_format is validated, except by get_action_info which always answers JSON', async () => {
    const client = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    const bad = (await client.callTool({
      name: 'kn_search',
      arguments: { query: 'x', response_format: 'xml' },
    })) as ToolCallResult;
    expect(errorBodyOf(bad).code).toBe('agentRetrieval.BadRequest.InvalidResponseFormat');
    const action = (await client.callTool({
      name: 'get_action_info',
      arguments: { at_id: 'create_prescription', response_format: 'xml' },
    })) as ToolCallResult;
    expect(action.isError).toBeUndefined();
    expect(JSON.parse(textOf(action))).toEqual(action.structuredContent);
    const tools = (action.structuredContent as { _dynamic_tools: { name: string }[] })._dynamic_tools;
    expect(tools.map((tool) => tool.name)).toEqual(['create_prescription']);
    await client.close();
  });

  it('an unknown tool is a JSON-RPC error, not a tool result', async () => {
    const client = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    const failure = await client.callTool({ name: 'drop_tables', arguments: {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(-32602);
    expect((failure as McpError).message).toContain('Unknown tool: drop_tables');
    await client.close();
  });

  it('speaks JSON-RPC on the wire: parse errors, GET in stateless mode, sub-paths, large bodies', async () => {
    const parse = await request(app.url).post(MCP_PATH).set(RPC_HEADERS).send('{"jsonrpc": "2.0", ');
    expect(parse.status).toBe(400);
    expect(parse.body).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) }, id: null });

    const get = await request(app.url).get(MCP_PATH).set(RPC_HEADERS);
    expect(get.status).toBe(405);
    expect(get.body.jsonrpc).toBe('2.0');

    const sub = await request(app.url).post(`${MCP_PATH}/tools/list`).set(RPC_HEADERS).send(INITIALIZE).expect(200);
    expect(sub.body.result.serverInfo.name).toBe('agent-retrieval');

    // A 300 KB message passes the transport; free text in it is still bounded (MAX_TEXT_LENGTH).
    const call = (args: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'kn_search', arguments: args },
    });
    const big = call({ query: 'x', padding: 'x'.repeat(300_000) });
    const large = await request(app.url).post(MCP_PATH).set(RPC_HEADERS).set('X-Kn-ID', 'clinic').send(big).expect(200);
    expect(large.body.result.isError).toBeUndefined();
    expect(large.body.result.structuredContent).toMatchObject({ object_types: expect.any(Array), nodes: [] });
    expect(large.headers['mcp-session-id']).toBeUndefined();
    const longQuery = await request(app.url)
      .post(MCP_PATH)
      .set(RPC_HEADERS)
      .set('X-Kn-ID', 'clinic')
      .send(call({ query: 'x'.repeat(300_000) }));
    expect(errorBodyOf(longQuery.body.result).code).toBe('agentRetrieval.BadRequest.LimitExceeded');
  });

  it('counts every tool call in /metrics by tool and outcome', async () => {
    const client = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    const ok = (await client.callTool({
      name: 'query_object_instance',
      arguments: { ot_id: 'patient' },
    })) as ToolCallResult;
    expect((ok.structuredContent as { datas: unknown[] }).datas).toHaveLength(10);
    const bad = (await client.callTool({
      name: 'query_object_instance',
      arguments: { ot_id: 'no_such_type' },
    })) as ToolCallResult;
    expect(errorBodyOf(bad).code).toBe('agentRetrieval.NotFound.ObjectTypeNotFound');
    await client.close();
    const metrics = await request(app.url).get('/metrics').expect(200);
    for (const outcome of ['ok', 'error']) {
      expect(metrics.text).toMatch(
        new RegExp(`agent_retrieval_mcp_tool_calls_total\\{tool="query_object_instance",outcome="${outcome}"\\} [1-9]`),
      );
      expect(metrics.text).toMatch(
        new RegExp(
          `agent_retrieval_mcp_tool_duration_seconds_count\\{tool="query_object_instance",outcome="${outcome}"\\} [1-9]`,
        ),
      );
    }
  });

  it('serves no protected-resource metadata without introspection', async () => {
    await request(app.url).get('/.well-known/oauth-protected-resource/api/agent-retrieval/v1/mcp').expect(404);
    await request(app.url).get('/.well-known/oauth-protected-resource').expect(404);
  });

  it('DNS rebinding: a foreign Host/Origin gets 403 before any JSON-RPC; loopback is served', async () => {
    const foreign = await request(app.url)
      .post(MCP_PATH)
      .set(RPC_HEADERS)
      .set('Host', 'evil.example.com')
      .set('Origin', 'http://evil.example.com')
      .send(INITIALIZE);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('agentRetrieval.Forbidden.HostNotAllowed');
    expect(foreign.body.jsonrpc).toBeUndefined();

    const local = await request(app.url)
      .post(MCP_PATH)
      .set(RPC_HEADERS)
      .set('Host', `127.0.0.1:${port}`)
      .set('Origin', `http://127.0.0.1:${port}`)
      .send(INITIALIZE);
    expect(local.status).toBe(200);
    expect(local.body.result.serverInfo.name).toBe('agent-retrieval');
  });

  it('20 concurrent clients with their own X-Kn-ID each get only their own network (10 calls each)', async () => {
    const service = app.app.get(KnSearchService);
    const spy = jest.spyOn(service, 'knSearch');
    const clients = await Promise.all(
      Array.from({ length: 20 }, (_, index) => connectV1(app.url, { 'X-Kn-ID': `network-${index}` })),
    );
    try {
      const answers = await Promise.all(
        clients.map(async (client, index) => {
          const results = await Promise.all(
            Array.from({ length: 10 }, (_, call) =>
              client.callTool({ name: 'kn_search', arguments: { query: `q-${index}-${call}` } }),
            ),
          );
          return results.map((result) => answeringKnId(result as ToolCallResult));
        }),
      );
      answers.forEach((knIds, index) => expect(knIds).toEqual(Array(10).fill(`network-${index}`)));
      const seen = spy.mock.calls.map(([input]) => `${input.kn_id}|${input.query.split('-')[1]}`);
      expect(seen).toHaveLength(200);
      for (const pair of seen) expect(pair.split('|')[0]).toBe(`network-${pair.split('|')[1]}`);
    } finally {
      spy.mockRestore();
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
