/**
 * Network discovery over MCP (issue 15): a client with no X-Kn-ID lists the networks, describes one
 * by kn_id (brief by default, every field on request), and is told clearly when the id is unknown.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { connectV1, errorBodyOf, textOf, ToolCallResult } from './support/mcp-clients';

describe('network discovery tools (e2e)', () => {
  let app: TestApp;
  let client: Client;

  const call = async (name: string, args: Record<string, unknown>): Promise<ToolCallResult> =>
    (await client.callTool({ name, arguments: args })) as ToolCallResult;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectV1(app.url);
  });

  afterAll(async () => {
    await client?.close();
    await app.close();
  });

  it('without X-Kn-ID lists the discovery tools, and a call naming a network runs as on its connection', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.slice(0, 3)).toEqual(['list_knowledge_networks', 'get_kn_detail', 'kn_search']);
    expect(names).not.toContain('query_object_instance');
    expect(names).not.toContain('execute_action');
    const instances = await call('query_object_instance', { kn_id: 'clinic', ot_id: 'patient', limit: 1 });
    expect(instances.isError).toBeFalsy();
    expect((instances.structuredContent as { datas: unknown[] }).datas).toHaveLength(1);
  });

  it('on a connection to a network, list_knowledge_networks is neither listed nor run', async () => {
    const bound = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    try {
      expect((await bound.listTools()).tools.map((tool) => tool.name)).not.toContain('list_knowledge_networks');
      const refused = (await bound.callTool({ name: 'list_knowledge_networks', arguments: {} })) as ToolCallResult;
      expect(errorBodyOf(refused)).toMatchObject({
        code: 'agentRetrieval.NotFound.ToolNotOffered',
        details: 'list_knowledge_networks: the connection already works on network "clinic"',
      });
    } finally {
      await bound.close();
    }
  });

  it('list_knowledge_networks answers what GET /kn/networks answers, without X-Kn-ID', async () => {
    const result = await call('list_knowledge_networks', {});
    expect(result.isError).toBeFalsy();
    const rest = await request(app.url).get('/api/agent-retrieval/v1/kn/networks').expect(200);
    expect(result.structuredContent).toEqual(rest.body);
    expect((result.structuredContent as { networks: { id: string }[] }).networks.map((network) => network.id)).toEqual(
      expect.arrayContaining(['clinic', 'k8s_ops']),
    );
  });

  it('get_kn_detail describes clinic briefly by default and fully with brief=false', async () => {
    const brief = (await call('get_kn_detail', { kn_id: 'clinic' })).structuredContent as {
      counts: { object_types: number };
      object_types: Record<string, unknown>[];
      relation_types: Record<string, unknown>[];
    };
    expect(brief.counts.object_types).toBe(brief.object_types.length);
    expect(brief.object_types).toContainEqual(expect.objectContaining({ id: 'patient' }));
    expect(brief.object_types[0]).not.toHaveProperty('data_properties');
    expect(brief.relation_types).toContainEqual(
      expect.objectContaining({
        id: 'patient_diagnosed_with',
        source_object_type_id: 'patient',
        target_object_type_id: 'diagnosis',
      }),
    );
    const full = (await call('get_kn_detail', { kn_id: 'clinic', brief: false })).structuredContent as {
      object_types: { id: string; data_properties: { name: string }[] }[];
    };
    const patient = full.object_types.find((ot) => ot.id === 'patient')!;
    expect(patient.data_properties.map((property) => property.name)).toContain('patient_id');
  });

  it('get_kn_detail without any kn_id, or with an unknown one, is a clear tool error', async () => {
    const missing = await call('get_kn_detail', {});
    expect(errorBodyOf(missing).details).toBe(
      'kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)',
    );
    const unknown = await call('get_kn_detail', { kn_id: 'no_such_network' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('no_such_network');
  });
});
