/**
 * Embedded knowledge-base search with an embeddings endpoint and a rerank endpoint (both played by
 * stand-ins speaking the OpenAI embeddings and Jina/Cohere rerank contracts), on a small documents
 * folder that also holds a file that is not UTF-8: it is skipped, the rest loads.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { HttpPeer, sendJson } from './support/http-peer';

const KB_REST = '/api/agent-retrieval/v1/kb';
const DIMENSIONS = 8;
const TOPICS = [
  ['糖尿病', 'sugar', '血糖', 'glucose'],
  ['高血压', 'blood pressure', '降压'],
  ['心脏', 'heart', '心悸'],
];

/** One axis per topic, so "sugar" lands near 血糖 without sharing a word with it. */
function fakeVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0.01);
  TOPICS.forEach((words, axis) => {
    if (words.some((word) => text.toLowerCase().includes(word))) vector[axis] += 1;
  });
  return vector;
}

interface Output {
  results: { knowledge_filename: string; match_type: string; score: number }[];
}

describe('knowledge-base search with vectors and rerank (e2e)', () => {
  let app: TestApp;
  let rerankCalls: { query: string; documents: string[]; model: string }[] = [];
  const embeddings = new HttpPeer((recorded, response) => {
    const body = JSON.parse(recorded.body) as { input: string[] };
    sendJson(response, 200, { data: body.input.map((text, index) => ({ index, embedding: fakeVector(text) })) });
  });
  const reranker = new HttpPeer((recorded, response) => {
    const body = JSON.parse(recorded.body) as { query: string; documents: string[]; model: string };
    rerankCalls.push(body);
    // The stand-in prefers passages about the heart, whatever the query.
    sendJson(response, 200, {
      results: body.documents.map((text, index) => ({ index, relevance_score: text.includes('心脏') ? 0.97 : 0.6 })),
    });
  });

  beforeAll(async () => {
    const docs = mkdtempSync(path.join(tmpdir(), 'kb-vectors-'));
    const kb = path.join(docs, 'health');
    mkdirSync(kb);
    writeFileSync(path.join(kb, 'README.md'), '---\nname: 健康知识\ndescription: test\n---\n');
    writeFileSync(path.join(kb, 'glucose.md'), '# 血糖管理\n\n## 监测\n\n空腹血糖应每周监测，糖尿病患者需要记录。\n');
    writeFileSync(path.join(kb, 'pressure.md'), '# 高血压随访\n\n## 降压\n\n降压药物应按时服用，每月复查。\n');
    writeFileSync(
      path.join(kb, 'heart.html'),
      '<html><title>心脏康复</title><h1>心脏康复</h1><p>心悸时应停止运动。</p></html>',
    );
    writeFileSync(path.join(kb, 'broken.md'), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0xfd, 0x0a]));
    const [embeddingUrl, rerankUrl] = await Promise.all([embeddings.start(), reranker.start()]);
    app = await startTestApp({
      DOCS_DIR: docs,
      EMBEDDING_URL: embeddingUrl,
      RERANK_URL: rerankUrl,
      RERANK_MODEL: 'fake-rerank',
    });
  });

  afterAll(async () => {
    await app.close();
    await Promise.all([embeddings.stop(), reranker.stop()]);
  });

  beforeEach(() => {
    rerankCalls = [];
  });

  const search = async (body: Record<string, unknown>): Promise<Output> =>
    (await request(app.url).post(`${KB_REST}/search`).send(body).expect(200)).body as Output;

  it('loads every readable document and skips the file that is not UTF-8', async () => {
    const list = await request(app.url).get(`${KB_REST}/knowledge-bases`).expect(200);
    expect(list.body.knowledge_bases).toEqual([
      { id: 'health', name: '健康知识', description: 'test', document_count: 3 },
    ]);
  });

  it('vector mode finds a passage that shares no word with the query', async () => {
    const output = await search({ query: 'sugar', search_mode: 'vector', rerank: false });
    expect(output.results[0]).toMatchObject({ knowledge_filename: 'glucose.md', match_type: 'vector' });
  });

  it('hybrid fuses both rankings: a passage found by both is a hybrid match', async () => {
    const output = await search({ query: '血糖 sugar', rerank: false, min_score: 0 });
    expect(output.results[0]).toMatchObject({ knowledge_filename: 'glucose.md', match_type: 'hybrid' });
    expect(rerankCalls).toEqual([]);
  });

  it('rerank: true rescores the candidates with the rerank model', async () => {
    const output = await search({ query: '血糖 sugar', min_score: 0 });
    expect(rerankCalls).toHaveLength(1);
    expect(rerankCalls[0]).toMatchObject({ model: 'fake-rerank', query: '血糖 sugar' });
    expect(output.results[0]).toMatchObject({ knowledge_filename: 'heart.html', score: 0.97 });
  });
});
