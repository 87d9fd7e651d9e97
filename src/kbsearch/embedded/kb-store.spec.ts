import { KbErrors } from '../kbsearch.errors';
import { LoadedBase } from './docs-folder';
import { KbStore } from './kb-store';
import { chunkDocument } from './passage-chunker';

const base = (id: string, documents: Record<string, string[]>): LoadedBase => ({
  id,
  name: id,
  description: '',
  documents: Object.entries(documents).map(([file, lines]) => ({
    file,
    title: file.replace(/\.md$/, ''),
    passages: chunkDocument({ lines, firstLine: 1 }),
  })),
});

describe('KbStore keyword search', () => {
  const bases = [
    base('clinic', {
      'diabetes.md': ['# 糖尿病', '二甲双胍 是 血糖 控制 的 一线 用药', '## 饮食', '少糖 多 蔬菜'],
      'hypertension.md': ['# 高血压', '血压 控制 目标 低于 130/80'],
    }),
    base('ops', { 'restart.md': ['# Restarts', 'a pod keeps restarting: check CrashLoopBackOff events'] }),
  ];
  let store: KbStore;

  beforeAll(() => {
    store = KbStore.serve(KbStore.build(bases), undefined, 0);
  });

  afterAll(() => store.close());

  const search = (query: string, kbIds = ['clinic', 'ops'], minScore = 0) =>
    store.search({ query, mode: 'keyword', kbIds, candidates: 50, minScore });

  it('ranks the passage holding every query word first, with score 1, and says where it is', async () => {
    const { results } = await search('二甲双胍 血糖');
    expect(results[0]).toMatchObject({
      id: 'clinic/diabetes.md#0',
      score: 1,
      match_type: 'keyword',
      knowledge_base_id: 'clinic',
      knowledge_filename: 'diabetes.md',
      heading_path: ['糖尿病'],
      start_line: 2,
      end_line: 2,
    });
  });

  it('keeps a passage that holds only part of the query below one that holds all of it', async () => {
    const { results } = await search('血糖 控制');
    const scores = new Map(results.map((result) => [result.knowledge_filename, result.score]));
    expect(scores.get('diabetes.md')).toBeGreaterThan(scores.get('hypertension.md')!);
  });

  it('drops what scores under min_score', async () => {
    const all = await search('血糖 控制');
    const strict = await search('血糖 控制', ['clinic', 'ops'], 0.9);
    expect(strict.results.length).toBeLessThan(all.results.length);
    for (const result of strict.results) expect(result.score).toBeGreaterThanOrEqual(0.9);
  });

  it('sends only the first `keep` results and counts the rest', async () => {
    const all = await search('血糖 控制');
    const kept = await store.search({
      query: '血糖 控制',
      mode: 'keyword',
      kbIds: ['clinic'],
      candidates: 50,
      minScore: 0,
      keep: 1,
    });
    expect(all.results.length).toBeGreaterThan(1);
    expect(kept).toEqual({ results: all.results.slice(0, 1), total: all.total });
  });

  it('searches only the knowledge bases asked for', async () => {
    expect((await search('restarting', ['clinic'])).results).toEqual([]);
    expect((await search('restarting', ['ops'])).results.map((result) => result.knowledge_base_id)).toEqual(['ops']);
  });

  it('answers nothing for a query with no searchable word, and refuses vector mode without embeddings', async () => {
    expect((await search('   ')).results).toEqual([]);
    await expect(
      store.search({ query: '血糖', mode: 'vector', kbIds: ['clinic'], candidates: 10, minScore: 0 }),
    ).rejects.toMatchObject({ definition: KbErrors.VectorSearchUnavailable });
  });
});
