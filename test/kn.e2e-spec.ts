import * as path from 'node:path';
import request from 'supertest';
import { KnowledgeNetworkPort } from '../src/knowledge-network/knowledge-network.port';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';

const FIXTURES = path.join(__dirname, 'fixtures', 'networks');
const PUBLIC = '/api/agent-retrieval/v1/kn';
const PRIVATE = '/api/agent-retrieval/in/v1/kn';
const KN = 'clinic_mini';

type Row = Record<string, unknown>;
const ids = (rows: Row[], key: string): unknown[] => rows.map((row) => row[key]);

describe('knowledge-network routes (e2e)', () => {
  let app: TestApp;
  const post = (route: string, body: object, prefix = PRIVATE) =>
    request(app.url).post(`${prefix}/${route}`).set(INTERNAL_CALLER).send(body);
  const patients = (condition: object, extra: object = {}) =>
    post('query_object_instance', { kn_id: KN, ot_id: 'patient', condition, limit: 100, ...extra });

  beforeAll(async () => {
    app = await startTestApp({ KN_DIR: FIXTURES, AUTH_MODE: 'none' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('lists networks on both prefixes', async () => {
    for (const prefix of [PUBLIC, PRIVATE]) {
      const response = await request(app.url).get(`${prefix}/networks`).set(INTERNAL_CALLER).expect(200);
      expect(response.body.networks).toEqual([
        expect.objectContaining({
          id: KN,
          name: '迷你诊所 Mini Clinic',
          object_type_count: 4,
          relation_type_count: 3,
          action_type_count: 2,
          instance_count: 24,
        }),
      ]);
    }
  });

  it('kn_search ranks the relevant object types first for a Chinese query and recalls matching nodes', async () => {
    for (const prefix of [PUBLIC, PRIVATE]) {
      const { body } = await post('kn_search', { kn_id: KN, query: '糖尿病患者' }, prefix).expect(200);
      expect(ids(body.object_types, 'concept_id').slice(0, 2)).toEqual(['patient', 'diagnosis']);
      expect(body.object_types[0]).toMatchObject({
        concept_type: 'object_type',
        concept_name: '患者',
        primary_keys: ['patient_id'],
      });
      expect(body.object_types[0].data_properties[0]).toEqual(
        expect.objectContaining({ name: 'patient_id', type: 'string' }),
      );
      expect(body.relation_types[0]).toMatchObject({
        concept_id: 'patient_has_diagnosis',
        source_object_type_id: 'patient',
      });
      expect(body.action_types).toContainEqual(
        expect.objectContaining({ id: 'notify_patient', object_type_name: '患者', kn_id: KN }),
      );
      const nodes = body.nodes as Row[];
      const names = nodes.map((node) => `${String(node.object_type_id)}:${String(node.instance_name)}`);
      // Diabetic patients first: the query asks for 患者, so the patient type's hits weigh most.
      expect(['patient:张伟', 'patient:王强']).toContain(names[0]);
      expect(names).toEqual(expect.arrayContaining(['patient:张伟', 'patient:王强', 'diagnosis:糖尿病']));
      expect(names).not.toContain('patient:李娜');
      expect(body.message).toBeUndefined();
    }
  });

  it('kn_search only_schema leaves nodes out; no matching instance gives the documented message', async () => {
    const schemaOnly = await post('kn_search', {
      kn_id: KN,
      query: '糖尿病',
      only_schema: true,
    }).expect(200);
    expect(schemaOnly.body.nodes).toBeUndefined();
    const nothing = await post('kn_search', { kn_id: KN, query: 'xyzzy plugh' }).expect(200);
    expect(nothing.body.nodes).toEqual([]);
    expect(nothing.body.message).toBe('未检索到符合条件的实例数据');
  });

  it('kn_search takes kn_id from the body over the X-Kn-ID header, and the header alone works', async () => {
    await post('kn_search', { kn_id: KN, query: '药品' }).set('X-Kn-ID', 'other').expect(200);
    await post('kn_search', { query: '药品' }).set('X-Kn-ID', KN).expect(200);
    const missing = await post('kn_search', { query: '药品' }).expect(400);
    expect(missing.body.details).toBe('kn_id is required (configure X-Kn-ID header or pass kn_id in arguments)');
    const noQuery = await post('kn_search', { kn_id: KN, query: '  ' }).expect(400);
    expect(noQuery.body.details).toBe('query is required');
    const unknown = await post('kn_search', { kn_id: 'nope', query: 'x' }).expect(404);
    expect(unknown.body.code).toBe('agentRetrieval.NotFound.KnowledgeNetworkNotFound');
  });

  it('semantic-search returns the most relevant concept first', async () => {
    const { body } = await post('semantic-search', {
      kn_id: KN,
      query: '药品',
      max_concepts: 3,
    }).expect(200);
    expect(body.concepts).toHaveLength(3);
    expect(body.concepts[0]).toMatchObject({
      concept_type: 'object_type',
      concept_id: 'medicine',
      concept_name: '药品 Medicine',
    });
    expect(body.concepts[0].concept_detail.primary_keys).toEqual(['medicine_id']);
    const scoped = await post('semantic-search', {
      kn_id: KN,
      query: '患者',
      search_scope: { include_object_types: false },
    }).expect(200);
    expect((scoped.body.concepts as Row[]).every((concept) => concept.concept_type !== 'object_type')).toBe(true);
  });

  it('query_object_instance filters with nested and/or, in, range and like', async () => {
    const nested = await patients({
      operation: 'and',
      sub_conditions: [
        { operation: 'in', field: 'city', value: ['北京', '上海'] },
        {
          operation: 'or',
          sub_conditions: [
            { operation: 'range', field: 'age', value: [60, 80] },
            { operation: 'like', field: 'notes', value: '偏头痛' },
          ],
        },
      ],
    }).expect(200);
    expect(ids(nested.body.datas, 'patient_id').sort()).toEqual(['P002', 'P003']);
    const row = (nested.body.datas as Row[]).find((item) => item.patient_id === 'P003')!;
    expect(row).toMatchObject({
      age: 67,
      chronic: true,
      _instance_identity: { patient_id: 'P003' },
      _display: '王强',
    });
    const booleans = await patients({ operation: '==', field: 'chronic', value: true }).expect(200);
    expect(ids(booleans.body.datas, 'patient_id')).toEqual(['P001', 'P003', 'P006', 'P007']);
    const dates = await patients({
      operation: '<',
      field: 'registered_at',
      value: '2016-01-01',
    }).expect(200);
    expect(ids(dates.body.datas, 'patient_id')).toEqual(['P001', 'P003']);
    const missingCity = await patients({ operation: 'not_exist', field: 'city' }).expect(200);
    expect(ids(missingCity.body.datas, 'patient_id')).toEqual(['P007']);
  });

  it('query_object_instance ranks match results and returns only the requested properties', async () => {
    const { body } = await patients(
      { operation: 'match', field: 'notes', value: '糖尿病' },
      { properties: ['name'] },
    ).expect(200);
    expect(ids(body.datas, '_display').sort()).toEqual(['张伟', '王强']);
    expect(Object.keys(body.datas[0]).sort()).toEqual(['_display', '_instance_identity', '_score', 'name']);
    expect(body.datas[0]._score).toBeGreaterThanOrEqual(body.datas[1]._score);
  });

  it('query_object_instance takes kn_id and ot_id from the query string and limits rows', async () => {
    const { body } = await request(app.url)
      .post(`${PUBLIC}/query_object_instance?kn_id=${KN}&ot_id=medicine`)
      .send({ limit: 2 })
      .expect(200);
    expect(ids(body.datas, 'medicine_id')).toEqual(['M01', 'M02']);
    await request(app.url)
      .post(`${PUBLIC}/query_object_instance?kn_id=${KN}&ot_id=medicine`)
      .send({ limit: 10001 })
      .expect(400);
    const unknownType = await post('query_object_instance', { kn_id: KN, ot_id: 'nurse' }).expect(404);
    expect(unknownType.body.code).toBe('agentRetrieval.NotFound.ObjectTypeNotFound');
  });

  it('rejects an unknown field, a wrong operation and hostile values without leaking rows', async () => {
    const unknown = await patients({ operation: '==', field: 'password', value: 'x' }).expect(400);
    expect(unknown.body.code).toBe('agentRetrieval.BadRequest.UnknownConditionField');
    expect(unknown.body.details).toContain('"password"');
    const hostileField = await patients({
      operation: '==',
      field: 'name = name OR 1=1 --',
      value: 'x',
    }).expect(400);
    expect(hostileField.body.code).toBe('agentRetrieval.BadRequest.UnknownConditionField');
    const wrongOp = await patients({ operation: 'like', field: 'age', value: '5' }).expect(400);
    expect(wrongOp.body.code).toBe('agentRetrieval.BadRequest.UnsupportedConditionOperation');
    for (const operation of ['==', 'like', 'match', 'in']) {
      const value = operation === 'in' ? ["x' OR 1=1 --"] : "x' OR 1=1 --";
      const { body } = await patients({ operation, field: 'name', value }).expect(200);
      expect(body.datas).toEqual([]);
    }
    const knn = await patients({ operation: 'knn', field: 'notes', value: 'x' }).expect(400);
    expect(knn.body.code).toBe('agentRetrieval.BadRequest.KnnUnavailable');
  });

  it('returns a 2-hop subgraph with objects and relation paths', async () => {
    const { body } = await post('query_instance_subgraph', {
      kn_id: KN,
      relation_type_paths: [
        {
          object_types: [
            { id: 'patient', condition: { operation: '==', field: 'patient_id', value: 'P003' } },
            { id: 'diagnosis' },
            { id: 'medicine' },
          ],
          relation_types: [
            {
              relation_type_id: 'patient_has_diagnosis',
              source_object_type_id: 'patient',
              target_object_type_id: 'diagnosis',
            },
            {
              relation_type_id: 'diagnosis_treated_with',
              source_object_type_id: 'diagnosis',
              target_object_type_id: 'medicine',
            },
          ],
        },
      ],
    }).expect(200);
    const [entry] = body.entries;
    expect(Object.keys(entry.objects).sort()).toEqual([
      'diagnosis:D04',
      'diagnosis:D05',
      'medicine:M01',
      'medicine:M02',
      'medicine:M03',
      'patient:P003',
    ]);
    expect(entry.objects['medicine:M02']).toMatchObject({
      object_type_id: 'medicine',
      object_type_name: '药品 Medicine',
      display: '胰岛素',
      unique_identities: { medicine_id: 'M02' },
    });
    expect(entry.total_count).toBe(3);
    const paths = (entry.relation_paths as { relations: Row[] }[]).map((p) =>
      p.relations.map((r) => `${String(r.source_object_id)}>${String(r.target_object_id)}`).join(' '),
    );
    expect(paths.sort()).toEqual([
      'patient:P003>diagnosis:D04 diagnosis:D04>medicine:M03',
      'patient:P003>diagnosis:D05 diagnosis:D05>medicine:M01',
      'patient:P003>diagnosis:D05 diagnosis:D05>medicine:M02',
    ]);
  });

  it('walks a relation backwards and rejects steps whose endpoints do not match', async () => {
    const { body } = await post('query_instance_subgraph', {
      kn_id: KN,
      relation_type_paths: [
        {
          object_types: [
            { id: 'medicine', condition: { operation: '==', field: 'medicine_id', value: 'M06' } },
            { id: 'diagnosis' },
          ],
          relation_types: [{ relation_type_id: 'diagnosis_treated_with' }],
        },
      ],
    }).expect(200);
    expect(body.entries[0].relation_paths).toEqual([
      {
        relations: [
          {
            relation_type_id: 'diagnosis_treated_with',
            source_object_id: 'diagnosis:D08',
            target_object_id: 'medicine:M06',
          },
        ],
      },
    ]);
    const sorted = await post('query_instance_subgraph', {
      kn_id: KN,
      relation_type_paths: [
        {
          object_types: [
            { id: 'doctor', condition: { operation: '==', field: 'doctor_id', value: 'DR1' } },
            { id: 'diagnosis', sort: [{ field: 'severity', direction: 'desc' }], limit: 2 },
          ],
          relation_types: [{ relation_type_id: 'doctor_made_diagnosis' }],
        },
      ],
    }).expect(200);
    const diagnoses = (sorted.body.entries[0].relation_paths as { relations: Row[] }[]).map(
      (p) => p.relations[0].target_object_id,
    );
    expect(diagnoses).toEqual(['diagnosis:D07', 'diagnosis:D01']);
    const badSort = await post('query_instance_subgraph', {
      kn_id: KN,
      relation_type_paths: [{ object_types: [{ id: 'doctor', sort: [{ field: 'salary' }] }], relation_types: [] }],
    }).expect(400);
    expect(badSort.body.code).toBe('agentRetrieval.BadRequest.UnknownConditionField');
    const bad = await post('query_instance_subgraph', {
      kn_id: KN,
      relation_type_paths: [
        {
          object_types: [{ id: 'patient' }, { id: 'medicine' }],
          relation_types: [{ relation_type_id: 'patient_has_diagnosis' }],
        },
      ],
    }).expect(400);
    expect(bad.body.code).toBe('agentRetrieval.BadRequest.InvalidRelationTypePath');
    await post('query_instance_subgraph', {
      kn_id: KN,
      relation_type_paths: [{ object_types: [{ id: 'patient' }, { id: 'diagnosis' }], relation_types: [] }],
    }).expect(400);
  });

  it('binds actions to instances: property values, constants, inputs left out', async () => {
    const kn = app.app.get(KnowledgeNetworkPort);
    const mcp = await kn.queryActions(KN, 'notify_patient', [{ patient_id: 'P001' }, { patient_id: 'P002' }]);
    expect(mcp.action_source).toEqual({
      type: 'mcp',
      mcp_id: 'clinic_mcp',
      tool_name: 'send_notification',
    });
    expect(mcp.actions).toEqual([
      {
        parameters: { patient_id: 'P001', patient_name: '张伟', channel: 'sms' },
        _instance_identity: { patient_id: 'P001' },
      },
      {
        parameters: { patient_id: 'P002', patient_name: '李娜', channel: 'sms' },
        _instance_identity: { patient_id: 'P002' },
      },
    ]);
    const tool = await kn.queryActions(KN, 'refill_prescription', []);
    expect(tool.action_source).toEqual({
      type: 'tool',
      box_id: 'pharmacy_box',
      tool_id: 'refill_tool',
    });
    expect(tool.actions).toEqual([{ parameters: { quantity: 30 } }]);
    await expect(kn.queryActions(KN, 'launch_rocket', [])).rejects.toMatchObject({ status: 404 });
  });

  it('resolves logic properties, naming missing inputs, unknown and uncomputable properties', async () => {
    const base = {
      kn_id: KN,
      ot_id: 'patient',
      query: '诊断统计',
      _instance_identities: [{ patient_id: 'P001' }, { patient_id: 'P005' }],
    };
    const { body } = await post('logic-property-resolver', {
      ...base,
      properties: ['diagnosis_count', 'severity_stat'],
      additional_context: '{"function":"max"}',
    }).expect(200);
    expect(body.datas).toEqual([
      { patient_id: 'P001', diagnosis_count: 2, severity_stat: 3 },
      { patient_id: 'P005', diagnosis_count: 0, severity_stat: null },
    ]);
    const missing = await post('logic-property-resolver', {
      ...base,
      properties: ['severity_stat'],
      additional_context: 'free text',
    }).expect(400);
    expect(missing.body.details).toContain('"function"');
    const unknown = await post('logic-property-resolver', {
      ...base,
      properties: ['age_next_year'],
    }).expect(400);
    expect(unknown.body.details).toContain(
      'available logic properties: [diagnosis_count, severity_stat, readmission_risk]',
    );
    const uncomputable = await post('logic-property-resolver', {
      ...base,
      properties: ['readmission_risk'],
    }).expect(501);
    expect(uncomputable.body.details).toContain('readmission_risk');
    await post('logic-property-resolver', {
      ...base,
      _instance_identities: [],
      properties: ['diagnosis_count'],
    }).expect(400);
    await post('logic-property-resolver', { ...base, properties: [] }).expect(400);
  });

  it('reports loaded networks and keyword-only search in /health', async () => {
    const { body } = await request(app.url).get('/health').expect(200);
    expect(body.details.knowledge_network).toMatchObject({
      status: 'up',
      search: 'keyword-only',
      networks: [expect.objectContaining({ id: KN })],
      failed: [],
    });
  });
});
