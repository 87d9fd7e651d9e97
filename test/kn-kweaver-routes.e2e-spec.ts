import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, sendJson } from './support/http-peer';

const KN = '/api/agent-retrieval/in/v1/kn';
const BKN_NOT_FOUND = {
  error_code: 'BknBackend.KnowledgeNetwork.NotFound',
  description: 'knowledge network not found',
  solution: 'check kn_id',
  error_link: 'https://example.com/bkn-error',
  error_details: { kn_id: 'kn-001' },
};

/** The /kn REST routes over the KWeaver adapter, against peers speaking ontology-query and bkn-backend. */
describe('KWeaver backend through the /kn routes (e2e)', () => {
  const bkn = new HttpPeer((_request, response) => sendJson(response, 404, BKN_NOT_FOUND));
  const oq = new HttpPeer((_request, response) => sendJson(response, 200, { datas: [] }));
  let app: TestApp;

  beforeAll(async () => {
    await Promise.all([bkn.start(), oq.start()]);
    app = await startTestApp({
      KN_BACKEND: 'kweaver',
      BKN_BACKEND_URL: bkn.url,
      ONTOLOGY_QUERY_URL: oq.url,
      ONTOLOGY_QUERY_TIMEOUT_MS: '300',
    });
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([bkn.stop(), oq.stop()]);
  });

  it('passes a bkn-backend error body through with its status', async () => {
    const response = await request(app.url)
      .post(`${KN}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'kn-001', query: '糖尿病', only_schema: true })
      .expect(404);
    expect(response.body).toEqual({
      code: 'BknBackend.KnowledgeNetwork.NotFound',
      description: 'knowledge network not found',
      solution: 'check kn_id',
      link: 'https://example.com/bkn-error',
      details: { kn_id: 'kn-001' },
    });
  });

  it('forwards the caller account to ontology-query and returns its rows', async () => {
    oq.setHandler((_request, response) =>
      sendJson(response, 200, { datas: [{ name: 'x', _instance_identity: { id: 'i-1' } }] }),
    );
    const response = await request(app.url)
      .post(`${KN}/query_object_instance?kn_id=kn-001&ot_id=patient`)
      .set('x-account-id', 'u-7')
      .set('x-account-type', 'user')
      .send({ limit: 5 })
      .expect(200);
    expect(response.body.datas).toEqual([{ name: 'x', _instance_identity: { id: 'i-1' } }]);
    const sent = oq.requests.at(-1)!;
    expect(sent.headers['x-account-id']).toBe('u-7');
    expect(sent.headers['x-http-method-override']).toBe('GET');
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('answers 504 in the standard body when ontology-query does not answer in time', async () => {
    oq.setHandler(() => undefined);
    const response = await request(app.url)
      .post(`${KN}/query_object_instance?kn_id=kn-001&ot_id=patient`)
      .set(INTERNAL_CALLER)
      .set('X-Language', 'en-US')
      .send({ limit: 5 })
      .expect(504);
    expect(response.body.code).toBe('agentRetrieval.GatewayTimeout.UpstreamTimeout');
    expect(response.body.description).toBe('An upstream service did not answer in time');
  });
});
