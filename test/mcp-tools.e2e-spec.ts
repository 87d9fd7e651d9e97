/**
 * The six MCP tools on the Chinese clinic demo network (examples/networks/clinic, the embedded
 * backend), through the real SDK client: real values from the demo data, and each tool's
 * structuredContent equal to its REST route's answer for the same input.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { decodeToon } from '../src/common/response-format/toon';
import { startTestApp, TestApp } from './support/app';
import { diagnosisPath } from './support/clinic-paths';
import { answeringKnId, connectV1, errorBodyOf, textOf, ToolCallResult } from './support/mcp-clients';

const KN_ID = 'clinic';
const REST = '/api/agent-retrieval/v1/kn';
/** P00276 has four visits in examples/networks/clinic/data/visit.csv. */
const PATIENT = 'P00276';

type Row = Record<string, unknown>;

describe('MCP tools on the clinic demo network (e2e)', () => {
  let app: TestApp;
  let client: Client;
  let patient: Row;

  async function call(name: string, args: Row): Promise<ToolCallResult> {
    const result = (await client.callTool({ name, arguments: args })) as ToolCallResult;
    if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
    expect(answeringKnId(result)).toBe(KN_ID);
    return result;
  }

  const structured = (result: ToolCallResult) => result.structuredContent as Record<string, Row[]>;
  const ids = (items: Row[] | undefined, key = 'id') => (items ?? []).map((item) => item[key]);

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectV1(app.url, { 'X-Kn-ID': KN_ID });
    const condition = { operation: '==', field: 'patient_id', value: PATIENT, value_from: 'const' };
    const instances = await call('query_object_instance', { ot_id: 'patient', condition, limit: 1 });
    patient = structured(instances).datas[0];
  });

  afterAll(async () => {
    await client?.close();
    await app.close();
  });

  it('kn_schema_search recalls the patient object type, TOON text decoding to structuredContent', async () => {
    const result = await call('kn_schema_search', { query: '患者' });
    const concepts = structured(result).concepts;
    expect(concepts).toContainEqual(expect.objectContaining({ concept_type: 'object_type', concept_id: 'patient' }));
    expect(decodeToon(textOf(result))).toEqual(result.structuredContent);
  });

  it('kn_search recalls patient, diagnosis and drug with instance nodes; response_format=json switches the text', async () => {
    const result = await call('kn_search', { query: '患者 诊断 用药', response_format: 'json' });
    const body = structured(result);
    expect(ids(body.object_types, 'concept_id')).toEqual(expect.arrayContaining(['patient', 'diagnosis', 'drug']));
    expect(body.nodes.length).toBeGreaterThan(0);
    for (const node of body.nodes)
      expect(node).toMatchObject({ object_type_id: expect.any(String), _instance_identity: expect.any(Object) });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    const schemaOnly = await call('kn_search', { query: '患者', only_schema: true });
    expect(ids(structured(schemaOnly).object_types, 'concept_id')).toContain('patient');
    expect(structured(schemaOnly).nodes).toBeUndefined();
  });

  it('kn_search finds the 2型糖尿病 diagnosis instance and the create_prescription action type', async () => {
    const result = await call('kn_search', { query: '2型糖尿病 开具处方' });
    const body = structured(result);
    expect(ids(body.action_types)).toContain('create_prescription');
    // Among the answer's nodes, page after page (a page holds what fits in 10 KB).
    const nodes = [...(body.nodes as unknown[])];
    for (let cursor = body.next_cursor as unknown as string | undefined; cursor;) {
      const page = structured(await call('kn_search', { query: '2型糖尿病 开具处方', cursor }));
      nodes.push(...(page.nodes as unknown[]));
      cursor = page.next_cursor as unknown as string | undefined;
    }
    expect(nodes).toContainEqual(
      expect.objectContaining({ object_type_id: 'diagnosis', _instance_identity: { diagnosis_id: 'DX001' } }),
    );
  });

  it('query_object_instance filters patients exactly and returns their _instance_identity', async () => {
    expect(patient).toMatchObject({ patient_id: PATIENT, _instance_identity: { patient_id: PATIENT } });
    const result = await call('query_object_instance', { ot_id: 'patient', limit: 3 });
    const datas = structured(result).datas;
    expect(datas).toHaveLength(3);
    for (const item of datas) expect(item._instance_identity).toEqual({ patient_id: item.patient_id });
  });

  it("query_instance_subgraph follows patient_diagnosed_with to the patient's primary diagnosis", async () => {
    const result = await call('query_instance_subgraph', { relation_type_paths: [diagnosisPath(PATIENT)] });
    const text = JSON.stringify(structured(result).entries);
    expect(structured(result).entries.length).toBeGreaterThan(0);
    expect(text).toContain(String(patient.primary_diagnosis_id));
    expect(text).toContain(PATIENT);
  });

  it("resolve_logic_properties counts the patient's visits (visit_total equals the visit instances)", async () => {
    const visits = await call('query_object_instance', {
      ot_id: 'visit',
      condition: { operation: '==', field: 'patient_id', value: PATIENT, value_from: 'const' },
      limit: 100,
    });
    expect(structured(visits).datas).toHaveLength(4);
    const result = await call('resolve_logic_properties', {
      ot_id: 'patient',
      query: '这位患者累计就诊几次',
      _instance_identities: [patient._instance_identity],
      properties: ['visit_total'],
    });
    expect(structured(result).datas).toEqual([{ patient_id: PATIENT, visit_total: 4 }]);
  });

  it('resolve_logic_properties on an operator the embedded store cannot run is the documented 501 body', async () => {
    const result = (await client.callTool({
      name: 'resolve_logic_properties',
      arguments: {
        ot_id: 'patient',
        query: '依从性',
        _instance_identities: [patient._instance_identity],
        properties: ['medication_adherence'],
      },
    })) as ToolCallResult;
    expect(errorBodyOf(result)).toMatchObject({ code: 'agentRetrieval.NotImplemented.LogicPropertyNotComputable' });
    expect(errorBodyOf(result).details).toContain('"medication_adherence_score"');
  });

  it('get_action_info recalls create_prescription as a function call, always as JSON text', async () => {
    const result = await call('get_action_info', {
      at_id: 'create_prescription',
      _instance_identities: [patient._instance_identity],
      response_format: 'toon',
    });
    const tools = structured(result)._dynamic_tools;
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      name: 'create_prescription',
      api_call_strategy: 'kn_action_recall',
      parameters: { type: 'object', properties: expect.any(Object) },
    });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
  });

  it('an unknown kn_id is the KnowledgeNetworkNotFound body, the same as REST answers', async () => {
    const result = (await client.callTool({
      name: 'kn_search',
      arguments: { query: '患者', kn_id: 'no-such-network' },
    })) as ToolCallResult;
    expect(answeringKnId(result)).toBe('no-such-network');
    const body = errorBodyOf(result);
    expect(body.code).toBe('agentRetrieval.NotFound.KnowledgeNetworkNotFound');
    const viaRest = await request(app.url)
      .post(`${REST}/kn_search`)
      .set('X-Kn-ID', 'no-such-network')
      .send({ query: '患者' })
      .expect(404);
    expect(body).toEqual(viaRest.body);
  });

  it('kn_search 糖尿病治疗方案: each brief page is at most 10 KB, and the pages hold every fact of the full answer', async () => {
    const query = '糖尿病治疗方案';
    const full = (await request(app.url).post(`${REST}/kn_search`).set('X-Kn-ID', KN_ID).send({ query }).expect(200))
      .body as Record<string, Row[]>;
    const pages: Record<string, Row[]>[] = [];
    let cursor: unknown;
    do {
      const result = await call('kn_search', { query, ...(cursor ? { cursor } : {}) });
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(10 * 1024);
      // The text a model reads is the same data, compactly rendered.
      expect(decodeToon(textOf(result))).toEqual(result.structuredContent);
      pages.push(structured(result));
      cursor = (result.structuredContent as Row).next_cursor;
    } while (cursor && pages.length < 50);
    expect(ids(pages[0].object_types, 'concept_id')).toEqual(ids(full.object_types, 'concept_id'));
    expect(ids(pages[0].relation_types, 'concept_id')).toEqual(ids(full.relation_types, 'concept_id'));
    expect(ids(pages[0].action_types)).toEqual(ids(full.action_types));
    const nodes = pages.flatMap((page) => page.nodes);
    expect(full.nodes.length).toBeGreaterThan(5);
    expect(nodes).toHaveLength(full.nodes.length);
    full.nodes.forEach((node, index) => {
      const brief = nodes[index] as { instance_name: string; _instance_identity: Row; properties: Row };
      expect(brief).toMatchObject({ object_type_id: node.object_type_id, instance_name: node.instance_name });
      // One name for an instance's key in every agent-facing answer.
      expect(brief._instance_identity).toEqual(node.unique_identities);
      // Every property value is there: in properties, or said once as the key or the name.
      const said = { ...brief.properties, ...brief._instance_identity };
      for (const [name, value] of Object.entries(node.properties as Row)) {
        expect([name, name in said ? said[name] : value === brief.instance_name ? value : undefined]).toEqual([
          name,
          value,
        ]);
      }
    });
    const plans = nodes
      .filter((node) => node.object_type_id === 'diagnosis')
      .map((node) => (node.properties as Row).treatment_plan);
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.every((plan) => typeof plan === 'string' && plan.includes('治疗方案'))).toBe(true);
  });

  it('find_skills takes the names every other tool uses (ot_id, _instance_identities) as well as its own', async () => {
    const own = await call('find_skills', {
      object_type_id: 'patient',
      instance_identities: [{ patient_id: PATIENT }],
    });
    const shared = await call('find_skills', { ot_id: 'patient', _instance_identities: [{ patient_id: PATIENT }] });
    expect(shared.structuredContent).toEqual(own.structuredContent);
    expect(structured(own).entries.length).toBeGreaterThan(0);
  });

  it('kn_search refuses a cursor it did not write', async () => {
    const result = (await client.callTool({
      name: 'kn_search',
      arguments: { query: '糖尿病', cursor: 'bm9wZQ' },
    })) as ToolCallResult;
    expect(errorBodyOf(result)).toMatchObject({ code: 'agentRetrieval.BadRequest.ValidationFormat' });
  });

  it.each([
    ['kn_schema_search', 'semantic-search', () => ({ query: '患者' })],
    // detail=full: the upstream answer, which REST gives by default.
    ['kn_search', 'kn_search', () => ({ query: '患者 诊断', detail: 'full' })],
    ['query_object_instance', 'query_object_instance', () => ({ ot_id: 'patient', limit: 5 })],
    ['query_instance_subgraph', 'query_instance_subgraph', () => ({ relation_type_paths: [diagnosisPath(PATIENT)] })],
    [
      'resolve_logic_properties',
      'logic-property-resolver',
      () => ({
        ot_id: 'patient',
        query: '就诊次数',
        _instance_identities: [{ patient_id: PATIENT }],
        properties: ['visit_total'],
      }),
    ],
    [
      'get_action_info',
      'get_action_info',
      () => ({ at_id: 'create_prescription', _instance_identities: [{ patient_id: PATIENT }] }),
    ],
  ])('%s returns the same data as POST /kn/%s for the same input', async (tool, route, argsOf) => {
    const args: Row = argsOf();
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
