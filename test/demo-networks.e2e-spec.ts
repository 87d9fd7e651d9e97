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
  });

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
