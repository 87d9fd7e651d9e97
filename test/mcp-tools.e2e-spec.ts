/**
 * The six MCP tools on the Chinese clinic demo network (examples/networks/clinic), through the real
 * SDK client, and each tool against its REST route. Needs the knsearch, actionrecall and embedded
 * knowledge-network branches: until they are merged these cases fail with 501 results.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { decodeToon } from '../src/common/interceptors/toon';
import { KnowledgeNetworkPort } from '../src/knowledge-network/knowledge-network.port';
import { KnSchema } from '../src/knowledge-network/knowledge-network.types';
import { startTestApp, TestApp } from './support/app';
import { answeringKnId, connectV1, textOf, ToolCallResult } from './support/mcp-clients';

const KN_ID = 'clinic';
const REST = '/api/agent-retrieval/v1/kn';

describe('MCP tools on the clinic demo network (e2e, post-merge)', () => {
  let app: TestApp;
  let client: Client;
  let schema: KnSchema;
  let patient: Record<string, unknown>;

  async function call(name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
    const result = (await client.callTool({ name, arguments: args })) as ToolCallResult;
    if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
    expect(answeringKnId(result)).toBe(KN_ID);
    return result;
  }

  const structured = (result: ToolCallResult) => result.structuredContent as Record<string, unknown[]>;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectV1(app.url, { 'X-Kn-ID': KN_ID });
    schema = await app.app.get(KnowledgeNetworkPort).exportSchema(KN_ID);
    const instances = await call('query_object_instance', { ot_id: 'patient', limit: 1 });
    patient = structured(instances).datas[0] as Record<string, unknown>;
  });

  afterAll(async () => {
    await client?.close();
    await app.close();
  });

  it('kn_schema_search recalls the patient object type, TOON text decoding to structuredContent', async () => {
    const result = await call('kn_schema_search', { query: '患者' });
    const concepts = structured(result).concepts as { concept_type: string; concept_id: string }[];
    expect(concepts.some((concept) => concept.concept_type === 'object_type' && concept.concept_id === 'patient')).toBe(true);
    expect(decodeToon(textOf(result))).toEqual(result.structuredContent);
  });

  it('kn_search returns concepts and instance nodes; response_format=json switches the text', async () => {
    const result = await call('kn_search', { query: '患者 诊断 用药', response_format: 'json' });
    const body = structured(result);
    expect(body.object_types.length).toBeGreaterThan(0);
    expect(Array.isArray(body.nodes)).toBe(true);
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const schemaOnly = await call('kn_search', { query: '患者', only_schema: true });
    expect(structured(schemaOnly).nodes).toBeUndefined();
  });

  it('query_object_instance lists patients with their _instance_identity', async () => {
    const result = await call('query_object_instance', { ot_id: 'patient', limit: 3 });
    const datas = structured(result).datas as { _instance_identity?: object }[];
    expect(datas.length).toBeGreaterThan(0);
    expect(datas.length).toBeLessThanOrEqual(3);
    for (const item of datas) expect(item._instance_identity).toEqual(expect.any(Object));
  });

  it('query_instance_subgraph follows a relation from a patient', async () => {
    const relation = schema.relation_types.find((type) => type.source_object_type_id === 'patient');
    expect(relation).toBeDefined();
    const identity = patient._instance_identity as Record<string, unknown>;
    const [field, value] = Object.entries(identity)[0];
    const result = await call('query_instance_subgraph', {
      relation_type_paths: [
        {
          object_types: [
            { id: 'patient', condition: { operation: '==', field, value, value_from: 'const' }, limit: 1 },
            { id: relation!.target_object_type_id, limit: 10 },
          ],
          relation_types: [
            {
              relation_type_id: relation!.id,
              source_object_type_id: 'patient',
              target_object_type_id: relation!.target_object_type_id,
            },
          ],
        },
      ],
    });
    expect(Array.isArray(structured(result).entries)).toBe(true);
  });

  it('resolve_logic_properties computes a logic property for an instance', async () => {
    const owner = schema.object_types.find((type) => type.logic_properties.length > 0);
    expect(owner).toBeDefined();
    const instances = await call('query_object_instance', { ot_id: owner!.id, limit: 1 });
    const identity = (structured(instances).datas[0] as { _instance_identity: object })._instance_identity;
    const result = await call('resolve_logic_properties', {
      ot_id: owner!.id,
      query: '最近一年的情况',
      _instance_identities: [identity],
      properties: [owner!.logic_properties[0].name],
      additional_context: '{}',
    });
    expect(structured(result).datas).toHaveLength(1);
  });

  it('get_action_info recalls create_prescription as a function call, always as JSON text', async () => {
    const result = await call('get_action_info', {
      at_id: 'create_prescription',
      _instance_identities: [patient._instance_identity],
      response_format: 'toon',
    });
    const tools = structured(result)._dynamic_tools as { api_call_strategy: string; parameters: object }[];
    expect(tools.length).toBeGreaterThan(0);
    expect(tools[0].api_call_strategy).toBe('kn_action_recall');
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it.each([
    ['kn_schema_search', 'semantic-search', { query: '患者' }],
    ['kn_search', 'kn_search', { query: '患者 诊断' }],
    ['query_object_instance', 'query_object_instance', { ot_id: 'patient', limit: 5 }],
    ['get_action_info', 'get_action_info', { at_id: 'create_prescription' }],
  ])('%s returns the same data as POST /kn/%s for the same input', async (tool, route, args) => {
    const viaMcp = await call(tool, args);
    const query = 'ot_id' in args ? `?ot_id=${String(args.ot_id)}` : '';
    const viaRest = await request(app.url)
      .post(`${REST}/${route}${query}`)
      .set('X-Kn-ID', KN_ID)
      .send(args)
      .expect(200);
    expect(viaMcp.structuredContent).toEqual(viaRest.body);
  });
});
