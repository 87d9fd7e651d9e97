/**
 * search_schema, metric types and the ontology build-job routes (issue 15): on the demo networks over
 * REST (both prefixes) and MCP, and against bkn-backend stand-ins for the KWeaver backend.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';
import { connectV1, errorBodyOf, ToolCallResult } from './support/mcp-clients';

const PUBLIC = '/api/agent-retrieval/v1/kn';
const PRIVATE = '/api/agent-retrieval/in/v1/kn';

interface SchemaAnswer {
  object_types: { concept_id: string; concept_type?: string }[];
  relation_types: { concept_id: string; source_object_type_id: string; target_object_type_id: string }[];
  action_types: { id: string }[];
  metric_types: Record<string, unknown>[];
}

/** Endpoints of the relations, source then target in relation order, de-duplicated. */
const endpointsOf = (answer: SchemaAnswer): string[] => [
  ...new Set(answer.relation_types.flatMap((r) => [r.source_object_type_id, r.target_object_type_id])),
];

describe('search_schema on the demo networks (e2e)', () => {
  let app: TestApp;
  let client: Client;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectV1(app.url);
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it.each([PUBLIC, PRIVATE])('%s/search_schema for 糖尿病: the diabetes metric, endpoints first', async (prefix) => {
    const { body } = await request(app.url)
      .post(`${prefix}/search_schema`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic', query: '糖尿病' })
      .expect(200);
    const answer = body as SchemaAnswer;
    expect(Object.keys(answer).sort()).toEqual(['action_types', 'metric_types', 'object_types', 'relation_types']);
    expect(answer.metric_types[0]).toMatchObject({
      id: 'diabetes_patient_ratio',
      name: '糖尿病患者占比',
      metric_type: 'derived',
      scope_type: 'object_type',
      scope_ref: 'patient',
      unit: '%',
      calculation_formula: expect.stringContaining("primary_diagnosis_id IN ('DX001', 'DX002')"),
      analysis_dimensions: expect.arrayContaining([
        { name: 'district', display_name: '所在区', comment: '按患者居住区拆分' },
      ]),
    });
    const objectIds = answer.object_types.map((type) => type.concept_id);
    expect(objectIds).toEqual(expect.arrayContaining(['diagnosis', 'drug']));
    const endpoints = endpointsOf(answer);
    expect(objectIds.slice(0, endpoints.length)).toEqual(endpoints);
    expect(answer.relation_types[0]).toMatchObject({ source_object_type_id: 'diagnosis' });
    expect(answer.relation_types.map((relation) => relation.concept_id)).toContain('diagnosis_treated_by_drug');
    expect(answer.action_types.map((action) => action.id)).toEqual(
      expect.arrayContaining(['book_appointment', 'create_prescription']),
    );
  });

  it('keeps every endpoint beyond max_concepts, and is brief on request', async () => {
    const { body } = await request(app.url)
      .post(`${PUBLIC}/search_schema`)
      .send({ kn_id: 'clinic', query: '糖尿病', max_concepts: 2, schema_brief: true })
      .expect(200);
    const answer = body as SchemaAnswer;
    expect(answer.relation_types).toHaveLength(2);
    expect(answer.object_types.map((type) => type.concept_id)).toEqual(endpointsOf(answer));
    expect(answer.object_types.length).toBeGreaterThan(2);
    expect(answer.object_types[0]).not.toHaveProperty('concept_type');
    expect(answer.relation_types[0]).not.toHaveProperty('comment');
    expect(answer.metric_types.map((metric) => metric.id)).toEqual(['diabetes_patient_ratio']);
  });

  it('answers k8s_ops pod restart questions with the pod restart rate', async () => {
    const { body } = await request(app.url)
      .post(`${PUBLIC}/search_schema`)
      .set('X-Kn-ID', 'k8s_ops')
      .send({ query: 'pod restart rate', search_scope: { include_object_types: false, include_action_types: false } })
      .expect(200);
    const answer = body as SchemaAnswer;
    expect(answer.metric_types[0]).toMatchObject({ id: 'pod_restart_rate', scope_ref: 'pod' });
    expect(answer.object_types).toEqual([]);
    expect(answer.action_types).toEqual([]);
    expect(answer.relation_types.length).toBeGreaterThan(0);
  });

  it('refuses a scope with no concept type, max_concepts 0 and a missing query', async () => {
    const none = {
      include_object_types: false,
      include_relation_types: false,
      include_action_types: false,
      include_metric_types: false,
    };
    const scope = await request(app.url)
      .post(`${PUBLIC}/search_schema`)
      .send({ kn_id: 'clinic', query: 'x', search_scope: none })
      .expect(400);
    expect(scope.body.details).toBe('search_scope must enable at least one concept type');
    const zero = await request(app.url)
      .post(`${PUBLIC}/search_schema`)
      .set('X-Language', 'en-US')
      .send({ kn_id: 'clinic', query: 'x', max_concepts: 0 })
      .expect(400);
    expect(zero.body.details).toBe('Parameter max_concepts must be greater than or equal to 1');
    await request(app.url).post(`${PUBLIC}/search_schema`).send({ kn_id: 'clinic' }).expect(400);
    const missing = await request(app.url).post(`${PUBLIC}/search_schema`).send({ query: 'x' }).expect(400);
    expect(missing.body.details).toContain('kn_id is required');
  });

  it('the MCP tool answers what REST answers, and is listed right after the discovery tools', async () => {
    // Without X-Kn-ID the discovery tools; on a network's connection, right after the network's description.
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.slice(0, 3)).toEqual(['list_knowledge_networks', 'get_kn_detail', 'kn_search']);
    const bound = await connectV1(app.url, { 'X-Kn-ID': 'clinic' });
    const boundNames = (await bound.listTools()).tools.map((tool) => tool.name);
    await bound.close();
    expect(boundNames.slice(0, 4)).toEqual(['get_kn_detail', 'search_schema', 'kn_schema_search', 'kn_search']);
    const result = (await client.callTool({
      name: 'search_schema',
      arguments: { kn_id: 'clinic', query: '糖尿病', max_concepts: 3 },
    })) as ToolCallResult;
    expect(result.isError).toBeFalsy();
    // An agent gets the brief schema by default; REST the full one unless it asks for the brief one.
    const rest = await request(app.url)
      .post(`${PUBLIC}/search_schema`)
      .send({ kn_id: 'clinic', query: '糖尿病', max_concepts: 3, schema_brief: true })
      .expect(200);
    expect(result.structuredContent).toEqual(rest.body);
    const refused = (await client.callTool({
      name: 'search_schema',
      arguments: {
        kn_id: 'clinic',
        query: 'x',
        search_scope: {
          include_object_types: false,
          include_relation_types: false,
          include_action_types: false,
          include_metric_types: false,
        },
      },
    })) as ToolCallResult;
    expect(refused.isError).toBe(true);
    expect(errorBodyOf(refused).details).toBe('search_scope must enable at least one concept type');
  });

  it('get_kn_detail counts and lists the metric types', async () => {
    const result = (await client.callTool({ name: 'get_kn_detail', arguments: { kn_id: 'clinic' } })) as ToolCallResult;
    const detail = result.structuredContent as { counts: { metric_types: number }; metric_types: { id: string }[] };
    expect(detail.counts.metric_types).toBe(4);
    expect(detail.metric_types).toContainEqual({
      id: 'monthly_visit_count',
      name: '月就诊量',
      scope_type: 'object_type',
      scope_ref: 'visit',
    });
  });

  it('include_logic_params adds each logic property with its bound parameters (REST query string and MCP)', async () => {
    const { body } = await request(app.url)
      .post(`${PUBLIC}/query_object_instance?kn_id=clinic&ot_id=patient&include_logic_params=true`)
      .send({ condition: { operation: '==', field: 'patient_id', value: 'P00276' }, properties: ['patient_name'] })
      .expect(200);
    const [patient] = body.datas as Record<string, unknown>[];
    expect(patient).toMatchObject({ patient_name: expect.any(String), _instance_identity: { patient_id: 'P00276' } });
    expect(patient).not.toHaveProperty('patient_id');
    expect(patient.visit_total).toEqual({
      type: 'operator',
      data_source: expect.objectContaining({ id: 'count_related' }),
      parameters: [
        {
          name: 'relation_type_id',
          type: 'string',
          value_from: 'const',
          value: 'visit_of_patient',
          comment: '经由的关系',
        },
        { name: 'patient_id', type: 'string', value_from: 'property', value: 'P00276', comment: '患者编号' },
      ],
    });
    const plain = await request(app.url)
      .post(`${PUBLIC}/query_object_instance?kn_id=clinic&ot_id=patient`)
      .send({ condition: { operation: '==', field: 'patient_id', value: 'P00276' } })
      .expect(200);
    expect(plain.body.datas[0]).not.toHaveProperty('visit_total');
    const result = (await client.callTool({
      name: 'query_instance_subgraph',
      arguments: {
        kn_id: 'clinic',
        include_logic_params: true,
        relation_type_paths: [
          {
            object_types: [
              { id: 'patient', condition: { operation: '==', field: 'patient_id', value: 'P00276' } },
              { id: 'diagnosis' },
            ],
            relation_types: [
              {
                relation_type_id: 'patient_diagnosed_with',
                source_object_type_id: 'patient',
                target_object_type_id: 'diagnosis',
              },
            ],
          },
        ],
      },
    })) as ToolCallResult;
    const entries = (
      result.structuredContent as {
        entries: { objects: Record<string, { object_type_id: string; properties: Record<string, unknown> }> }[];
      }
    ).entries;
    const subject = Object.values(entries[0].objects).find((object) => object.object_type_id === 'patient')!;
    expect(subject.properties.visit_total).toMatchObject({
      parameters: expect.arrayContaining([expect.objectContaining({ value: 'P00276' })]),
    });
  });

  it('the build-job routes are private, and 501 naming KN_BACKEND on the embedded backend', async () => {
    const build = await request(app.url)
      .post(`${PRIVATE}/full_build_ontology`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic', name: 'nightly' })
      .expect(501);
    expect(build.body.code).toBe('Public.NotImplemented');
    expect(build.body.details).toContain('KN_BACKEND=kweaver');
    const status = await request(app.url)
      .get(`${PRIVATE}/full_ontology_building_status?kn_id=clinic`)
      .set(INTERNAL_CALLER)
      .expect(501);
    expect(status.body.details).toContain('KN_BACKEND=kweaver');
    await request(app.url).post(`${PUBLIC}/full_build_ontology`).send({ kn_id: 'clinic', name: 'x' }).expect(404);
    await request(app.url).get(`${PUBLIC}/full_ontology_building_status?kn_id=clinic`).expect(404);
  });
});

describe('search_schema and build jobs against bkn-backend stand-ins (e2e)', () => {
  const EXPORT = {
    id: 'kn-1',
    name: 'clinic',
    object_types: [
      { id: 'patient', name: '患者', data_properties: [{ name: 'patient_id', type: 'string' }] },
      { id: 'diagnosis', name: '诊断', data_properties: [{ name: 'diagnosis_id', type: 'string' }] },
    ],
    relation_types: [
      {
        id: 'patient_diagnosed_with',
        name: '确诊',
        source_object_type_id: 'patient',
        target_object_type_id: 'diagnosis',
      },
    ],
    action_types: [],
    concept_groups: [],
  };
  const METRIC = {
    id: 'm-1',
    name: '糖尿病患者占比',
    unit: '%',
    metric_type: 'derived',
    scope_type: 'object_type',
    scope_ref: 'patient',
    calculation_formula: 'a / b',
    owner: 'bkn',
  };
  const BKN_FAILURE = {
    error_code: 'BknBackend.Metric.SearchFailed',
    description: 'metric search failed',
    solution: 'retry',
    error_link: 'none',
    error_details: 'opensearch unavailable',
  };
  let metricsFail = false;
  const bkn = new HttpPeer((req: RecordedRequest, res) => {
    const path = req.url.split('?')[0];
    if (req.method === 'GET' && path.endsWith('/knowledge-networks/kn-1')) return sendJson(res, 200, EXPORT);
    if (path.endsWith('/metrics')) {
      if (metricsFail) return sendJson(res, 500, BKN_FAILURE);
      return sendJson(res, 200, { entries: [METRIC], total_count: 1 });
    }
    if (path.endsWith('/jobs') && req.method === 'POST') return sendJson(res, 201, { id: 'job-42' });
    if (path.endsWith('/jobs')) {
      return sendJson(res, 200, {
        entries: [
          { id: 'job-2', state: 'running', job_type: 'full' },
          { id: 'job-1', state: 'completed', job_type: 'full' },
        ],
        total_count: 2,
      });
    }
    return sendJson(res, 200, { entries: [] });
  });
  const oq = new HttpPeer((_req, res) => sendJson(res, 200, { datas: [] }));
  let app: TestApp;

  beforeAll(async () => {
    await Promise.all([bkn.start(), oq.start()]);
    app = await startTestApp({ KN_BACKEND: 'kweaver', BKN_BACKEND_URL: bkn.url, ONTOLOGY_QUERY_URL: oq.url });
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([bkn.stop(), oq.stop()]);
  });

  const metricCalls = (): { headers: RecordedRequest['headers']; body: Record<string, unknown> }[] =>
    bkn.requests
      .filter((req) => req.url.startsWith('/api/bkn-backend/in/v1/knowledge-networks/kn-1/metrics'))
      .map((req) => ({ headers: req.headers, body: JSON.parse(req.body) as Record<string, unknown> }));

  it('recalls metrics with the documented direct and expansion bodies', async () => {
    bkn.requests.length = 0;
    const { body } = await request(app.url)
      .post(`${PRIVATE}/search_schema`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'kn-1', query: '糖尿病', max_concepts: 5 })
      .expect(200);
    expect(body.metric_types).toEqual([METRIC]);
    const [direct, expansion] = metricCalls();
    const knnOrMatch = {
      operation: 'or',
      sub_conditions: [
        { field: '*', operation: 'knn', value: '糖尿病', value_from: 'const', limit_key: 'k', limit_value: 5 },
        { field: '*', operation: 'match', value: '糖尿病', value_from: 'const' },
      ],
    };
    expect(direct.headers['x-http-method-override']).toBe('GET');
    expect(direct.body).toEqual({
      condition: knnOrMatch,
      sort: [{ field: '_score', direction: 'desc' }],
      limit: 5,
      need_total: false,
    });
    expect(expansion.body).toEqual({
      condition: {
        operation: 'and',
        sub_conditions: [
          { field: 'scope_type', operation: '==', value: 'object_type', value_from: 'const' },
          { field: 'scope_ref', operation: 'in', value: ['patient', 'diagnosis'], value_from: 'const' },
          knnOrMatch,
        ],
      },
      sort: [{ field: '_score', direction: 'desc' }],
      limit: 5,
      need_total: false,
    });
  });

  it('passes a bkn-backend 5xx of the metric search through as it came', async () => {
    metricsFail = true;
    try {
      const response = await request(app.url)
        .post(`${PRIVATE}/search_schema`)
        .set(INTERNAL_CALLER)
        .send({ kn_id: 'kn-1', query: '糖尿病' })
        .expect(500);
      expect(response.body).toEqual({
        code: 'BknBackend.Metric.SearchFailed',
        description: 'metric search failed',
        solution: 'retry',
        link: 'none',
        details: 'opensearch unavailable',
      });
      const skipped = await request(app.url)
        .post(`${PRIVATE}/search_schema`)
        .set(INTERNAL_CALLER)
        .send({ kn_id: 'kn-1', query: '糖尿病', search_scope: { include_metric_types: false } })
        .expect(200);
      expect(skipped.body.metric_types).toEqual([]);
    } finally {
      metricsFail = false;
    }
  });

  it('asks ontology-query for logic params on a subgraph when include_logic_params is set', async () => {
    oq.setHandler((_req, res) => sendJson(res, 200, { entries: [] }));
    const paths = [{ object_types: [{ id: 'patient' }], relation_types: [] }];
    await request(app.url)
      .post(`${PRIVATE}/query_instance_subgraph?include_logic_params=true`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'kn-1', relation_type_paths: paths })
      .expect(200);
    expect(oq.requests.at(-1)!.url).toBe(
      '/api/ontology-query/in/v1/knowledge-networks/kn-1/subgraph?include_logic_params=true&query_type=relation_path',
    );
    await request(app.url)
      .post(`${PRIVATE}/query_instance_subgraph`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'kn-1', relation_type_paths: paths });
    expect(oq.requests.at(-1)!.url).toBe(
      '/api/ontology-query/in/v1/knowledge-networks/kn-1/subgraph?query_type=relation_path',
    );
  });

  it('creates a full build job and reports the aggregated state, as BKN documents', async () => {
    bkn.requests.length = 0;
    const created = await request(app.url)
      .post(`${PRIVATE}/full_build_ontology`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'kn-1', name: 'nightly' })
      .expect(201);
    expect(created.body).toEqual({ id: 'job-42' });
    const post = bkn.requests.find((req) => req.method === 'POST')!;
    expect(post.url).toBe('/api/bkn-backend/in/v1/knowledge-networks/kn-1/jobs');
    expect(JSON.parse(post.body)).toEqual({ name: 'nightly', job_type: 'full' });
    const status = await request(app.url)
      .get(`${PRIVATE}/full_ontology_building_status?kn_id=kn-1`)
      .set(INTERNAL_CALLER)
      .expect(200);
    expect(status.body).toEqual({ kn_id: 'kn-1', state: 'running', state_detail: 'Some jobs are still running' });
    const list = bkn.requests.find((req) => req.method === 'GET' && req.url.includes('/jobs'))!;
    expect(list.url).toBe('/api/bkn-backend/in/v1/knowledge-networks/kn-1/jobs?job_type=full&limit=50&direction=desc');
    await request(app.url).get(`${PRIVATE}/full_ontology_building_status`).set(INTERNAL_CALLER).expect(400);
    await request(app.url)
      .post(`${PRIVATE}/full_build_ontology`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'kn-1' })
      .expect(400);
  });
});
