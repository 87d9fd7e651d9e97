import Database from 'better-sqlite3';
import { ftsQuery, segmentForIndex } from './text-segmenter';

describe('text segmenter', () => {
  it('quotes every token so FTS syntax in a query is inert', () => {
    expect(ftsQuery('糖尿病 治疗', 'AND')).toBe('"糖尿病" AND "治疗"');
    expect(ftsQuery('a" OR b NEAR(c)', 'OR')).toBe('"a" OR "or" OR "b" OR "near" OR "c"');
    expect(ftsQuery('！？。', 'AND')).toBe('');
  });

  it('leaves out words nearly every document has, unless nothing else is left', () => {
    const common = new Set(['患者']);
    expect(ftsQuery('糖尿病患者', 'AND', common)).toBe('"糖尿病"');
    expect(ftsQuery('患者', 'AND', common)).toBe('"患者"');
  });

  describe('BM25 over segmented text', () => {
    const db = new Database(':memory:');
    const documents = [
      '糖尿病的治疗方案包括饮食控制和药物治疗',
      '高血压患者应当低盐饮食',
      '治疗感冒多喝水',
      '心肌梗死需要紧急溶栓治疗',
      '高血压合并糖尿病的治疗方案需要综合评估',
      '数据库连接池超时导致服务不可用',
      '治疗。治疗。治疗。',
      '供应链库存周转率优化',
    ];
    beforeAll(() => {
      db.exec("CREATE VIRTUAL TABLE doc USING fts5(seg, tokenize='unicode61 remove_diacritics 2')");
      const insert = db.prepare('INSERT INTO doc (rowid, seg) VALUES (?, ?)');
      documents.forEach((text, i) => insert.run(i + 1, segmentForIndex(text)));
    });
    afterAll(() => db.close());
    const search = (query: string, joiner: 'AND' | 'OR'): number[] =>
      (
        db.prepare('SELECT rowid FROM doc WHERE doc MATCH ? ORDER BY bm25(doc)').all(ftsQuery(query, joiner)) as {
          rowid: number;
        }[]
      ).map((row) => row.rowid);

    it('ranks the documents that contain every word first', () => {
      expect(search('糖尿病治疗方案', 'AND').sort()).toEqual([1, 5]);
      expect(search('高血压 糖尿病', 'AND')).toEqual([5]);
      expect(search('连接池超时', 'AND')).toEqual([6]);
    });

    it('falls back to OR with the rarer words weighing more', () => {
      const ranked = search('糖尿病 溶栓', 'OR');
      expect(ranked.slice(0, 3).sort()).toEqual([1, 4, 5]);
      expect(ranked).not.toContain(7);
    });
  });
});
