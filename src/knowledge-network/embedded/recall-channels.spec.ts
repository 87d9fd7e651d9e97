import { HttpPeer, sendJson } from '../../../test/support/http-peer';
import { ObjectInstance } from '../knowledge-network.types';
import { RecallChannels, RecallObserver } from './recall-channels';

const instance = (id: string, score: number): ObjectInstance => ({
  id,
  _instance_identity: { id },
  _display: id,
  _score: score,
});

/** Five fused results, best first, and a cross-encoder that scores them in reverse. */
const FUSED = ['a', 'b', 'c', 'd', 'e'].map((id, i) => instance(id, 1 - i / 10));
const reversed = (count: number) => ({
  results: Array.from({ length: count }, (_, index) => ({ index, relevance_score: index / 10 })),
});

/** The rerank or embedding endpoint, played on loopback; `answer` is its next JSON answer. */
let answer: unknown;
const endpoint = new HttpPeer((_request, response) => sendJson(response, 200, answer));
beforeAll(() => endpoint.start());
afterAll(() => endpoint.stop());

function channels(mode: 'shadow' | 'on', topN = 3): { recall: RecallChannels; observer: jest.Mocked<RecallObserver> } {
  const observer = { degraded: jest.fn(), shadow: jest.fn() };
  const recall = new RecallChannels(
    { rerank: { url: endpoint.url, model: 'm' }, rerankMode: mode, rerankTopN: topN, timeoutMs: 1000 },
    observer,
  );
  return { recall, observer };
}

describe('RecallChannels', () => {
  beforeEach(() => {
    endpoint.requests.length = 0;
  });

  it('shadow: keeps the order and scores, adds the rerank channel and reports the agreement', async () => {
    answer = reversed(3);
    const { recall, observer } = channels('shadow');
    const results = await recall.rerankInstances('q', FUSED);
    expect(results.map((row) => row.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(results.map((row) => row._score)).toEqual(FUSED.map((row) => row._score));
    expect(results[0]._score_channels).toEqual({ keyword: 1, fused: 1, rerank: 0 });
    expect(observer.shadow).toHaveBeenCalledWith({ spearman: -1, top5Changes: 0 });
  });

  it('on: serves the top N in the cross-encoder order, the rest below every reranked score', async () => {
    answer = reversed(3);
    const { recall } = channels('on');
    const results = await recall.rerankInstances('q', FUSED);
    expect(results.map((row) => row.id)).toEqual(['c', 'b', 'a', 'd', 'e']);
    const scores = results.map((row) => row._score!);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    expect(JSON.parse(endpoint.requests[0].body).documents).toEqual(['a', 'b', 'c']);
  });

  it('an answer scoring the wrong number of documents keeps the fused order and counts one degradation', async () => {
    answer = reversed(2);
    const { recall, observer } = channels('on');
    const results = await recall.rerankInstances('q', FUSED);
    expect(results).toBe(FUSED);
    expect(observer.degraded).toHaveBeenCalledTimes(1);
    expect(observer.degraded).toHaveBeenCalledWith('rerank', 'count');
  });

  it('refuses a query vector of another length than the index', async () => {
    answer = { data: [{ index: 0, embedding: [0.1, 0.2] }] };
    const observer = { degraded: jest.fn(), shadow: jest.fn() };
    const recall = new RecallChannels(
      { embedding: { url: endpoint.url, model: 'm' }, rerankMode: 'off', rerankTopN: 50, timeoutMs: 1000 },
      observer,
    );
    await expect(recall.queryVectors(['q'], 3)).resolves.toEqual({});
    expect(observer.degraded).toHaveBeenCalledWith('vector', 'dimension');
  });
});
