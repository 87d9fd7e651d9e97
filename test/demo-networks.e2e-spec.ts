import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';

const KN = '/api/agent-retrieval/in/v1/kn';

/** What `npm start` serves with no configuration: the two demo networks under examples/networks. */
describe('demo networks (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it('loads both demo networks with the default KN_DIR', async () => {
    const { body } = await request(app.url).get(`${KN}/networks`).set(INTERNAL_CALLER).expect(200);
    const byId = Object.fromEntries(body.networks.map((network: { id: string }) => [network.id, network]));
    expect(Object.keys(byId).sort()).toEqual(['clinic', 'k8s_ops']);
    expect(byId.clinic.instance_count).toBeGreaterThanOrEqual(1000);
    expect(byId.clinic.name).toBe('智慧诊所知识网络');
    const ready = await request(app.url).get('/health/ready').expect(200);
    expect(ready.body.details.knowledge_network.failed).toEqual([]);
  });

  it('kn_search on the clinic ranks 诊断 and 药品 first for 糖尿病治疗方案 and recalls diabetes instances', async () => {
    const { body } = await request(app.url)
      .post(`${KN}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic', query: '糖尿病治疗方案' })
      .expect(200);
    const types = body.object_types.map((type: { concept_id: string }) => type.concept_id);
    expect(types.slice(0, 2)).toEqual(['diagnosis', 'drug']);
    const names = body.nodes.map((node: { instance_name: string }) => node.instance_name);
    expect(names.some((name: string) => name.includes('糖尿病'))).toBe(true);
    // The README's headline query must find the most common diabetes of all.
    expect(names).toContain('2型糖尿病');
  });

  it.each([
    ['a glossary variant', 'clinic', '拉肚子', 'diagnosis', '小儿腹泻'],
    ['traditional characters', 'clinic', '骨質疏鬆', 'diagnosis', '骨质疏松症'],
    ['a translation into the data language', 'k8s_ops', '节点 未就绪', 'node', 'worker-01'],
    ['full-width letters', 'k8s_ops', 'ＬｏａｄＢａｌａｎｃｅｒ', 'service', 'ingress-nginx-controller'],
  ])('kn_search finds what %s names', async (_, kn, query, type, name) => {
    const { body } = await request(app.url)
      .post(`${KN}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: kn, query })
      .expect(200);
    expect(body.object_types.slice(0, 3).map((t: { concept_id: string }) => t.concept_id)).toContain(type);
    const nodes = body.nodes.map((node: { object_type_id: string; instance_name: string }) => node);
    expect(nodes).toContainEqual(expect.objectContaining({ object_type_id: type, instance_name: name }));
  });

  it.each([
    ['clinic', 'create_prescription', { patient_id: 'P00001' }],
    ['clinic', 'book_appointment', { patient_id: 'P00001' }],
    ['k8s_ops', 'restart_deployment', { deployment_id: 'payments/payment-api' }],
    ['k8s_ops', 'scale_deployment', { deployment_id: 'payments/payment-api' }],
    ['k8s_ops', 'cordon_node', { node_name: 'cp-1' }],
  ])('%s action %s recalls a tool that exists', async (kn_id, at_id, identity) => {
    const { body } = await request(app.url)
      .post(`${KN}/get_action_info`)
      .set(INTERNAL_CALLER)
      .send({ kn_id, at_id, _instance_identity: identity })
      .expect(200);
    expect(body._dynamic_tools).toHaveLength(1);
  });

  it('every logic property of the demo networks computes standalone, or its description says it cannot', async () => {
    const { body } = await request(app.url).get(`${KN}/networks`).set(INTERNAL_CALLER).expect(200);
    const outcomes: string[] = [];
    for (const { id: kn_id, object_type_count } of body.networks as { id: string; object_type_count: number }[]) {
      const types = await objectTypes(kn_id);
      expect(types).toHaveLength(object_type_count);
      for (const type of types.filter((entry) => entry.logic_properties.length > 0)) {
        const sample = await request(app.url)
          .post(`${KN}/query_object_instance`)
          .set(INTERNAL_CALLER)
          .send({ kn_id, ot_id: type.concept_id, limit: 1 })
          .expect(200);
        for (const property of type.logic_properties) {
          const status = await resolveStatus(kn_id, type.concept_id, sample.body.datas[0]._instance_identity, property);
          const marked = property.comment.includes('KWeaver') && property.comment.includes('501');
          outcomes.push(
            `${kn_id}/${type.concept_id}.${property.name}: ${status}${status === 501 && !marked ? ' unmarked' : ''}`,
          );
        }
      }
    }
    expect(outcomes).toEqual([
      'clinic/patient.visit_count: 501',
      'clinic/patient.medication_adherence: 501',
      'clinic/patient.visit_total: 200',
      'k8s_ops/node.pod_count: 501',
    ]);
  });

  interface LogicProperty {
    name: string;
    comment: string;
    parameters: { name: string; type: string; value_from: string }[];
  }

  async function objectTypes(kn_id: string): Promise<{ concept_id: string; logic_properties: LogicProperty[] }[]> {
    const { body } = await request(app.url)
      .post(`${KN}/search_schema`)
      .set(INTERNAL_CALLER)
      .send({
        kn_id,
        query: 'x',
        max_concepts: 1000,
        search_scope: { include_relation_types: false, include_action_types: false, include_metric_types: false },
      })
      .expect(200);
    return body.object_types;
  }

  /** Resolves one logic property for one instance, with a plausible value for each input parameter. */
  async function resolveStatus(
    kn_id: string,
    ot_id: string,
    identity: unknown,
    property: LogicProperty,
  ): Promise<number> {
    const inputs = Object.fromEntries(
      property.parameters
        .filter((parameter) => parameter.value_from === 'input')
        .map((parameter) => [parameter.name, parameter.type === 'integer' ? 90 : '2025-01-01']),
    );
    const answer = await request(app.url)
      .post(`${KN}/logic-property-resolver`)
      .set(INTERNAL_CALLER)
      .send({
        kn_id,
        ot_id,
        query: property.name,
        _instance_identities: [identity],
        properties: [property.name],
        additional_context: JSON.stringify(inputs),
      });
    return answer.status;
  }

  it('semantic-search puts the drug object type first for 药品', async () => {
    const { body } = await request(app.url)
      .post(`${KN}/semantic-search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic', query: '药品' })
      .expect(200);
    expect(body.concepts[0]).toMatchObject({ concept_type: 'object_type', concept_id: 'drug' });
  });

  it('answers a wrong-typed field with 400 naming the JSON field, never a 500', async () => {
    const { body } = await request(app.url)
      .post(`${KN}/query_object_instance`)
      .set(INTERNAL_CALLER)
      .set('X-Language', 'en-US')
      .send({ kn_id: 'clinic', ot_id: 'patient', limit: 'ten' })
      .expect(400);
    expect(body.code).toMatch(/^agentRetrieval\.BadRequest\.Validation/);
    expect(body.details).toContain('limit');
  });

  it('the English network answers English queries', async () => {
    const { body } = await request(app.url)
      .post(`${KN}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'k8s_ops', query: 'restart deployment', only_schema: true })
      .expect(200);
    expect(body.action_types.map((action: { id: string }) => action.id)).toContain('restart_deployment');
  });
});
