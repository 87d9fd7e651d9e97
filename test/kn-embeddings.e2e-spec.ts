import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, sendJson } from './support/http-peer';

const FIXTURES = path.join(__dirname, 'fixtures', 'networks');
const PRIVATE = '/api/agent-retrieval/in/v1/kn';
const API_KEY = 'sk-embedding-test-key';
const DIMENSIONS = 16;
/** Words that share a direction, so "sugar" lands near 糖尿病 / diabetes without sharing a keyword. */
const TOPICS: string[][] = [
  ['糖尿病', 'diabetes', 'sugar', '血糖', '胰岛素'],
  ['高血压', 'hypertension', 'blood pressure'],
  ['心', 'heart', '冠心病'],
];

/** Deterministic fake embedding: one axis per topic, everything else hashed into a weak tail. */
function fakeVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  const lower = text.toLowerCase();
  TOPICS.forEach((words, axis) => {
    if (words.some((word) => lower.includes(word))) vector[axis] += 1;
  });
  for (const char of lower) vector[4 + (char.codePointAt(0)! % (DIMENSIONS - 4))] += 0.02;
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

describe('knowledge network with embeddings (e2e)', () => {
  let app: TestApp;
  const peer = new HttpPeer((recorded, response) => {
    const body = JSON.parse(recorded.body) as { input: string[]; model: string };
    sendJson(response, 200, {
      object: 'list',
      model: body.model,
      data: body.input.map((text, index) => ({
        object: 'embedding',
        index,
        embedding: fakeVector(text),
      })),
    });
  });

  beforeAll(async () => {
    const url = await peer.start();
    app = await startTestApp({
      KN_DIR: FIXTURES,
      AUTH_MODE: 'none',
      EMBEDDING_URL: url,
      EMBEDDING_MODEL: 'fake-embed',
      EMBEDDING_API_KEY: API_KEY,
    });
  });

  afterAll(async () => {
    await app.close();
    await peer.stop();
  });

  it('embeds concepts and instances at load with the configured model and key', () => {
    expect(peer.requests.length).toBeGreaterThan(0);
    const first = peer.requests[0];
    expect(first.url).toBe('/v1/embeddings');
    expect(first.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(JSON.parse(first.body).model).toBe('fake-embed');
  });

  it('says hybrid in /health without exposing the key', async () => {
    const response = await request(app.url).get('/health').expect(200);
    expect(response.body.details.knowledge_network.search).toBe('hybrid');
    expect(JSON.stringify(response.body)).not.toContain(API_KEY);
  });

  it('knn finds instances by meaning and match fuses keyword and vector hits', async () => {
    const knn = await request(app.url)
      .post(`${PRIVATE}/query_object_instance`)
      .set(INTERNAL_CALLER)
      .send({
        kn_id: 'clinic_mini',
        ot_id: 'patient',
        condition: { operation: 'knn', field: '*', value: 'sugar', limit_key: 'k', limit_value: 3 },
      })
      .expect(200);
    expect(knn.body.datas.map((row: { patient_id: string }) => row.patient_id).sort()).toEqual([
      'P001',
      'P003',
      'P006',
    ]);
    const match = await request(app.url)
      .post(`${PRIVATE}/query_object_instance`)
      .set(INTERNAL_CALLER)
      .send({
        kn_id: 'clinic_mini',
        ot_id: 'patient',
        condition: { operation: 'match', field: '*', value: 'sugar' },
        limit: 3,
      })
      .expect(200);
    expect(match.body.datas.map((row: { patient_id: string }) => row.patient_id)).toEqual(
      expect.arrayContaining(['P001', 'P003', 'P006']),
    );
    expect(match.body.datas[0]._score).toBeGreaterThan(0);
  });

  it('concept search ranks by fused keyword and vector ranks', async () => {
    const { body } = await request(app.url)
      .post(`${PRIVATE}/semantic-search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic_mini', query: '药品', max_concepts: 2 })
      .expect(200);
    expect(body.concepts[0].concept_id).toBe('medicine');
  });

  it('kn_search advertises knn on text properties and recalls nodes by meaning', async () => {
    const { body } = await request(app.url)
      .post(`${PRIVATE}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic_mini', query: '血糖高的患者' })
      .expect(200);
    const patient = (
      body.object_types as {
        concept_id: string;
        data_properties: { name: string; condition_operations: string[] }[];
      }[]
    ).find((type) => type.concept_id === 'patient')!;
    expect(patient.data_properties.find((p) => p.name === 'notes')!.condition_operations).toContain('knn');
    expect(body.nodes.length).toBeGreaterThan(0);
  });

  it('falls back to keyword ranking when the endpoint fails later; knn then matches nothing (200)', async () => {
    peer.setHandler((_recorded, response) => sendJson(response, 500, { error: 'down' }));
    const concepts = await request(app.url)
      .post(`${PRIVATE}/semantic-search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic_mini', query: '医生 科室' })
      .expect(200);
    expect(concepts.body.concepts[0].concept_id).toBe('doctor');
    const knn = await request(app.url)
      .post(`${PRIVATE}/query_object_instance`)
      .set(INTERNAL_CALLER)
      .send({
        kn_id: 'clinic_mini',
        ot_id: 'patient',
        condition: { operation: 'knn', field: '*', value: 'heart' },
      })
      .expect(200);
    expect(knn.body.datas).toEqual([]);
  });
});

describe('knowledge network with a failing embeddings endpoint (e2e)', () => {
  it('serves keyword-only and says why in /health', async () => {
    const peer = new HttpPeer((_recorded, response) => sendJson(response, 503, { error: 'unavailable' }));
    const url = await peer.start();
    const app = await startTestApp({ KN_DIR: FIXTURES, AUTH_MODE: 'none', EMBEDDING_URL: url });
    try {
      const health = await request(app.url).get('/health/ready').expect(200);
      expect(health.body.details.knowledge_network).toMatchObject({
        search: 'keyword-only',
        networks: [
          expect.objectContaining({
            id: 'clinic_mini',
            search: 'keyword-only',
            embedding_error: expect.stringContaining('HTTP 503'),
          }),
        ],
      });
      await request(app.url)
        .post(`${PRIVATE}/query_object_instance`)
        .set(INTERNAL_CALLER)
        .send({
          kn_id: 'clinic_mini',
          ot_id: 'patient',
          condition: { operation: 'knn', field: '*', value: 'x' },
        })
        .expect(400);
    } finally {
      await app.close();
      await peer.stop();
    }
  });
});
