/**
 * WeKnora answer and request shapes (issue 31 item 6): a peer speaking seed 003 §6.1 (`question`,
 * `{results, total_count}`) works; answers are read in either shape per answer whatever was sent; and
 * WEKNORA_API_SHAPE chooses the request (default WeKnora's own `query`).
 */
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';

const KB_SEARCH = '/api/agent-retrieval/v1/kb/search';
const KEY = 'sk-shapes-0123456789abcdef';

const passage = (id: string, score: number, matchType: string | number) => ({
  id,
  content: `content of ${id}`,
  score,
  knowledge_id: `doc-${id}`,
  knowledge_title: `Title ${id}`,
  knowledge_filename: `${id}.pdf`,
  match_type: matchType,
});

const SEED_RESULTS = [passage('s1', 0.92, 'hybrid'), passage('s2', 0.81, 'keyword'), passage('s3', 0.64, 'vector')];

type Answer = 'seed' | 'weknora' | 'neither';

describe('WeKnora answer and request shapes (e2e)', () => {
  let peer: HttpPeer;
  let answer: Answer = 'seed';
  const searches = (): RecordedRequest[] => peer.requests.filter((r) => r.url === '/api/v1/knowledge-search');
  const sentBody = (): Record<string, unknown> => JSON.parse(searches()[0].body) as Record<string, unknown>;

  beforeAll(async () => {
    // Plays WeKnora's knowledge-search; `answer` picks the shape it answers in.
    peer = new HttpPeer((recorded, response) => {
      if (recorded.headers['x-api-key'] !== KEY) return sendJson(response, 401, { error: 'Unauthorized' });
      if (recorded.method !== 'POST' || recorded.url !== '/api/v1/knowledge-search') {
        return sendJson(response, 404, { error: 'not found' });
      }
      if (answer === 'seed') return sendJson(response, 200, { results: SEED_RESULTS, total_count: 25 });
      if (answer === 'weknora') return sendJson(response, 200, { success: true, data: [passage('w1', 0.7, 0)] });
      return sendJson(response, 200, { success: true, items: [] });
    });
    await peer.start();
  });

  afterAll(async () => {
    await peer.stop();
  });

  const environment = (shape?: string) => ({
    KB_BACKEND: 'weknora',
    WEKNORA_BASE_URL: peer.url,
    WEKNORA_API_KEY: KEY,
    WEKNORA_KB_IDS: 'kb1,kb2',
    ...(shape ? { WEKNORA_API_SHAPE: shape } : {}),
  });

  describe('WEKNORA_API_SHAPE=seed', () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp(environment('seed'));
    });

    afterAll(async () => {
      await app.close();
    });

    beforeEach(() => {
      peer.requests.length = 0;
      answer = 'seed';
    });

    it("sends seed 003 §6.1's request and reads its {results, total_count} answer", async () => {
      const response = await request(app.url)
        .post(KB_SEARCH)
        .send({ query: '糖尿病 治疗', search_mode: 'keyword', top_k: 2, min_score: 0.6 })
        .expect(200);
      expect(searches()).toHaveLength(1);
      expect(peer.requests).toHaveLength(1);
      expect(sentBody()).toEqual({
        question: '糖尿病 治疗',
        knowledge_base_ids: ['kb1', 'kb2'],
        search_mode: 'keyword',
        top_k: 2,
        min_score: 0.6,
        rerank: true,
      });
      expect(response.body).toMatchObject({
        query: '糖尿病 治疗',
        total_count: 25,
        returned: 2,
        search_mode: 'keyword',
      });
      expect(response.body.results.map((r: { id: string; match_type: string }) => [r.id, r.match_type])).toEqual([
        ['s1', 'hybrid'],
        ['s2', 'keyword'],
      ]);
    });

    it("still reads WeKnora's own {success, data} answer", async () => {
      answer = 'weknora';
      const response = await request(app.url).post(KB_SEARCH).send({ query: 'policy' }).expect(200);
      expect(response.body).toMatchObject({ total_count: 1, results: [{ id: 'w1', match_type: 'vector' }] });
    });
  });

  describe('default request shape (WeKnora v0.7)', () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp(environment());
    });

    afterAll(async () => {
      await app.close();
    });

    beforeEach(() => {
      peer.requests.length = 0;
    });

    it("sends {query, knowledge_base_ids} and accepts the seed's answer shape, detected per answer", async () => {
      answer = 'seed';
      const seed = await request(app.url).post(KB_SEARCH).send({ query: 'policy', top_k: 5 }).expect(200);
      expect(sentBody()).toEqual({ query: 'policy', knowledge_base_ids: ['kb1', 'kb2'] });
      expect(seed.body).toMatchObject({ total_count: 25, returned: 3 });
      answer = 'weknora';
      const weknora = await request(app.url).post(KB_SEARCH).send({ query: 'policy', top_k: 5 }).expect(200);
      expect(weknora.body).toMatchObject({ total_count: 1, returned: 1 });
    });

    it('answers 502 naming both accepted shapes when an answer has neither', async () => {
      answer = 'neither';
      const response = await request(app.url)
        .post(KB_SEARCH)
        .set('x-language', 'en-US')
        .send({ query: 'policy' })
        .expect(502);
      expect(response.body.code).toBe('agentRetrieval.BadGateway.KnowledgeBaseSearchFailed');
      expect(response.body.details).toContain('{results, total_count}');
    });
  });

  it('refuses an unknown WEKNORA_API_SHAPE at boot, naming the variable', async () => {
    await expect(startTestApp(environment('v2'))).rejects.toThrow(/WEKNORA_API_SHAPE/);
  });
});
