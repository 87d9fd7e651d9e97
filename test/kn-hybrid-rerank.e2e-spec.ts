import { Logger } from '@nestjs/common';
import { ServerResponse } from 'node:http';
import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, PeerHandler, RecordedRequest, sendJson, untilCallerHangsUp } from './support/http-peer';

const FIXTURES = path.join(__dirname, 'fixtures', 'networks');
const PRIVATE = '/api/agent-retrieval/in/v1/kn';
const DIMENSIONS = 16;
/** Words that share a direction: "lungprobe" lands on P004's bronchitis without sharing a keyword with it. */
const TOPICS: string[][] = [
  ['糖尿病', 'diabetes', '血糖'],
  ['高血压', 'hypertension'],
  ['支气管炎', 'bronchitis', 'lungprobe'],
];

/** Deterministic stand-in embedding: one axis per topic, every character hashed into a weak tail. */
function standInVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  const lower = text.toLowerCase();
  TOPICS.forEach((words, axis) => {
    if (words.some((word) => lower.includes(word))) vector[axis] += 1;
  });
  for (const char of lower) vector[4 + (char.codePointAt(0)! % (DIMENSIONS - 4))] += 0.02;
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** The OpenAI-compatible `/v1/embeddings` answer. */
function embeddings(recorded: RecordedRequest, response: ServerResponse): void {
  const body = JSON.parse(recorded.body) as { input: string[] };
  sendJson(response, 200, {
    object: 'list',
    data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: standInVector(text) })),
  });
}

/** The Jina/Cohere `/v1/rerank` answer, scoring documents in reverse of the order they came in. */
function reversingRerank(recorded: RecordedRequest, response: ServerResponse): void {
  const body = JSON.parse(recorded.body) as { documents: string[] };
  const n = body.documents.length;
  sendJson(response, 200, {
    results: body.documents.map((_, index) => ({ index, relevance_score: (index + 1) / n })),
  });
}

interface Instance {
  patient_id: string;
  _score: number;
  _score_channels?: { keyword?: number; vector?: number; fused?: number; rerank?: number };
}

async function matchPatients(app: TestApp, value: string): Promise<Instance[]> {
  const { body } = await request(app.url)
    .post(`${PRIVATE}/query_object_instance`)
    .set(INTERNAL_CALLER)
    .send({ kn_id: 'clinic_mini', ot_id: 'patient', condition: { operation: 'match', field: '*', value }, limit: 7 })
    .expect(200);
  return body.datas as Instance[];
}

/** A counter's or histogram count's value in the Prometheus text, 0 when the series is absent. */
async function metric(app: TestApp, series: string): Promise<number> {
  const { text } = await request(app.url).get('/metrics').expect(200);
  const line = text.split('\n').find((entry: string) => entry.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const degraded = (channel: string, reason: string): string =>
  `agent_retrieval_kn_recall_degraded_total{channel="${channel}",reason="${reason}"}`;

function startApp(env: Record<string, string>): Promise<TestApp> {
  return startTestApp({ KN_DIR: FIXTURES, AUTH_MODE: 'none', EMBEDDING_MODEL: 'stand-in', ...env });
}

describe('hybrid recall: fusion weights (e2e)', () => {
  const peer = new HttpPeer(embeddings);
  let keywordOnly: TestApp;
  let vectorOnly: TestApp;

  beforeAll(async () => {
    const url = await peer.start();
    keywordOnly = await startApp({ EMBEDDING_URL: url, HYBRID_VECTOR_WEIGHT: '0' });
    vectorOnly = await startApp({ EMBEDDING_URL: url, HYBRID_VECTOR_WEIGHT: '100' });
  });

  afterAll(async () => {
    await keywordOnly?.close();
    await vectorOnly?.close();
    await peer.stop();
  });

  it('weight 0 ranks the keyword hit first, weight 100 the vector hit', async () => {
    // 偏头痛 (migraine) is only in P002's notes; "lungprobe" only points at P004's bronchitis.
    const byKeywords = await matchPatients(keywordOnly, '偏头痛 lungprobe');
    const byVectors = await matchPatients(vectorOnly, '偏头痛 lungprobe');
    expect(byKeywords[0].patient_id).toBe('P002');
    expect(byVectors[0].patient_id).toBe('P004');
  });

  it('shows each channel: bm25 for the keyword hit, cosine for vector hits, and the fused score', async () => {
    const results = await matchPatients(keywordOnly, '偏头痛 lungprobe');
    const p002 = results.find((row) => row.patient_id === 'P002')!;
    const p004 = results.find((row) => row.patient_id === 'P004')!;
    expect(p002._score_channels).toEqual({
      keyword: expect.any(Number),
      vector: expect.any(Number),
      fused: p002._score_channels!.fused,
    });
    expect(p002._score_channels!.keyword).toBeGreaterThan(0);
    expect(p004._score_channels!.keyword).toBeUndefined();
    expect(p004._score_channels!.vector).toBeGreaterThan(p002._score_channels!.vector!);
    expect(p002._score_channels!.fused).toBeCloseTo(p002._score, 4);
  });

  it('gives kn_search nodes and concepts their channel scores', async () => {
    const { body } = await request(vectorOnly.url)
      .post(`${PRIVATE}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic_mini', query: '糖尿病 患者' })
      .expect(200);
    expect(body.nodes.length).toBeGreaterThan(0);
    expect(body.nodes[0]._score_channels).toEqual(expect.objectContaining({ fused: expect.any(Number) }));
    expect(body.object_types[0]._score_channels).toEqual(expect.objectContaining({ fused: expect.any(Number) }));
    const concepts = await request(vectorOnly.url)
      .post(`${PRIVATE}/semantic-search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic_mini', query: '药品' })
      .expect(200);
    expect(concepts.body.concepts[0]._score_channels).toEqual(expect.objectContaining({ fused: expect.any(Number) }));
  });
});

describe('hybrid recall: rerank shadow and on (e2e)', () => {
  const embedder = new HttpPeer(embeddings);
  const reranker = new HttpPeer(reversingRerank);
  let shadow: TestApp;
  let on: TestApp;
  let warnings: jest.SpyInstance;

  beforeAll(async () => {
    const embeddingUrl = await embedder.start();
    const rerankUrl = await reranker.start();
    const common = { EMBEDDING_URL: embeddingUrl, RERANK_URL: rerankUrl, RETRIEVAL_TIMEOUT_MS: '500' };
    shadow = await startApp({ ...common, RERANK_MODE: 'shadow' });
    on = await startApp({ ...common, RERANK_MODE: 'on', RERANK_TOP_N: '5' });
    warnings = jest.spyOn(Logger.prototype, 'warn');
  });

  afterEach(() => {
    embedder.setHandler(embeddings);
    reranker.setHandler(reversingRerank);
    warnings.mockClear();
  });

  afterAll(async () => {
    warnings.mockRestore();
    await shadow?.close();
    await on?.close();
    await embedder.stop();
    await reranker.stop();
  });

  const channelWarnings = (): string[] =>
    warnings.mock.calls.map((call) => String(call[0])).filter((text) => text.includes('endpoint failed ('));

  it('shadow mode scores with the cross-encoder but serves the fused order, and measures the agreement', async () => {
    const before = await metric(shadow, 'agent_retrieval_kn_rerank_shadow_spearman_count');
    const results = await matchPatients(shadow, '糖尿病 血糖');
    expect(results.length).toBeGreaterThan(2);
    const fused = results.map((row) => row._score_channels!.fused!);
    expect([...fused].sort((a, b) => b - a)).toEqual(fused);
    const rerank = results.map((row) => row._score_channels!.rerank!);
    expect([...rerank].sort((a, b) => a - b)).toEqual(rerank);
    expect(results.map((row) => row._score)).toEqual(
      results.map((row) => expect.closeTo(row._score_channels!.fused!, 4)),
    );
    expect(await metric(shadow, 'agent_retrieval_kn_rerank_shadow_spearman_count')).toBe(before + 1);
    // The stand-in reverses the order: a correlation of -1, counted in the lowest bucket.
    expect(await metric(shadow, 'agent_retrieval_kn_rerank_shadow_spearman_bucket{le="-0.5"}')).toBeGreaterThan(0);
  });

  it('on mode serves the top N in the cross-encoder order', async () => {
    const results = await matchPatients(on, '糖尿病 血糖');
    const head = results.slice(0, 5);
    const rerank = head.map((row) => row._score_channels!.rerank!);
    expect([...rerank].sort((a, b) => b - a)).toEqual(rerank);
    const fused = head.map((row) => row._score_channels!.fused!);
    expect(fused[0]).toBeLessThan(Math.max(...fused));
    expect(head.map((row) => row._score)).toEqual(rerank);
    expect(reranker.requests.at(-1)!.url).toBe('/v1/rerank');
  });

  const embeddingFaults: [string, string, PeerHandler][] = [
    ['http_error', 'HTTP 500', (_recorded, response) => sendJson(response, 500, { error: 'down' })],
    ['malformed', 'a body without data', (_recorded, response) => sendJson(response, 200, { vectors: [] })],
    [
      'dimension',
      'a vector of the wrong length',
      (recorded, response) => {
        const input = (JSON.parse(recorded.body) as { input: string[] }).input;
        sendJson(response, 200, { data: input.map((_, index) => ({ index, embedding: [0.5, 0.5] })) });
      },
    ],
    ['count', 'no vector for the text', (_recorded, response) => sendJson(response, 200, { data: [] })],
    ['timeout', 'no answer before the deadline', (_recorded, response) => untilCallerHangsUp(response)],
  ];

  it.each(embeddingFaults)(
    'embeddings endpoint failing (%s: %s) → 200 in keyword order, one warning, a degraded count',
    async (reason, _what, handler) => {
      embedder.setHandler(handler);
      reranker.setHandler((_recorded, response) => sendJson(response, 503, {}));
      const before = await metric(on, degraded('vector', reason));
      const query = `偏头痛 probe-${reason}`;
      const results = await matchPatients(on, query);
      expect(results[0].patient_id).toBe('P002');
      expect(results.every((row) => row._score_channels?.vector === undefined)).toBe(true);
      expect(await metric(on, degraded('vector', reason))).toBe(before + 1);
      expect(channelWarnings().filter((text) => text.startsWith('embeddings'))).toHaveLength(1);
    },
  );

  it('a knn condition while the embeddings endpoint is down matches nothing: 200, not a 5xx', async () => {
    embedder.setHandler((_recorded, response) => sendJson(response, 502, {}));
    const { body } = await request(on.url)
      .post(`${PRIVATE}/query_object_instance`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic_mini', ot_id: 'patient', condition: { operation: 'knn', field: '*', value: 'knn-down' } })
      .expect(200);
    expect(body.datas).toEqual([]);
  });

  const rerankFaults: [string, string, PeerHandler][] = [
    ['http_error', 'HTTP 500', (_recorded, response) => sendJson(response, 500, {})],
    ['malformed', 'not JSON', (_recorded, response) => response.end('<html>')],
    [
      'not_finite',
      'a score that is not a number',
      (recorded, response) => {
        const n = (JSON.parse(recorded.body) as { documents: string[] }).documents.length;
        sendJson(response, 200, {
          results: Array.from({ length: n }, (_, index) => ({ index, relevance_score: 'NaN' })),
        });
      },
    ],
    [
      'count',
      'fewer scores than documents',
      (_recorded, response) => sendJson(response, 200, { results: [{ index: 0, relevance_score: 1 }] }),
    ],
    ['timeout', 'no answer before the deadline', (_recorded, response) => untilCallerHangsUp(response)],
  ];

  it.each(rerankFaults)(
    'rerank endpoint failing (%s: %s) → 200 in fused order, one warning, a degraded count',
    async (reason, _what, handler) => {
      reranker.setHandler(handler);
      const before = await metric(on, degraded('rerank', reason));
      const results = await matchPatients(on, '糖尿病 血糖');
      const fused = results.map((row) => row._score_channels!.fused!);
      expect([...fused].sort((a, b) => b - a)).toEqual(fused);
      expect(results.every((row) => row._score_channels!.rerank === undefined)).toBe(true);
      expect(await metric(on, degraded('rerank', reason))).toBe(before + 1);
      expect(channelWarnings().filter((text) => text.startsWith('rerank'))).toHaveLength(1);
    },
  );

  it('kn_search answers 200 with both endpoints down', async () => {
    embedder.setHandler((_recorded, response) => sendJson(response, 500, {}));
    reranker.setHandler((_recorded, response) => sendJson(response, 500, {}));
    const { body } = await request(on.url)
      .post(`${PRIVATE}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: 'clinic_mini', query: '糖尿病 both-down' })
      .expect(200);
    expect(body.nodes.length).toBeGreaterThan(0);
  });
});
