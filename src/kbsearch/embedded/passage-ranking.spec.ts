import { coverageScores, fuse, termWeights } from './passage-ranking';

describe('termWeights', () => {
  it('weighs a rare word above a common one', () => {
    const weights = termWeights(
      ['二甲双胍', '治疗'],
      new Map([
        ['二甲双胍', 2],
        ['治疗', 80],
      ]),
      100,
    );
    expect(weights.get('二甲双胍')).toBeGreaterThan(weights.get('治疗')!);
    for (const weight of weights.values()) expect(weight).toBeGreaterThan(0);
  });

  it('gives a word no passage holds the weight of the most common known word', () => {
    const weights = termWeights(['计划', '火星'], new Map([['计划', 30]]), 100);
    expect(weights.get('火星')).toBe(weights.get('计划'));
  });

  it('weighs nothing when no query word is known', () => {
    expect([...termWeights(['火星'], new Map(), 100).values()]).toEqual([0]);
  });
});

describe('coverageScores', () => {
  const weights = new Map([
    ['血糖', 3],
    ['控制', 1],
  ]);

  it('scores the best BM25 hit holding every word 1, and one holding every word at least 0.6', () => {
    const scores = coverageScores(
      [
        { rowid: 1, rank: -10, terms: '血糖 控制 目标' },
        { rowid: 2, rank: -1, terms: '控制 血糖' },
      ],
      weights,
    );
    expect(scores[0]).toEqual({ rowid: 1, score: 1 });
    expect(scores[1].rowid).toBe(2);
    expect(scores[1].score).toBeCloseTo(0.64, 5);
  });

  it('scores by the share of the query weight covered', () => {
    const scores = coverageScores(
      [
        { rowid: 1, rank: -5, terms: '血糖' },
        { rowid: 2, rank: -5, terms: '控制' },
      ],
      weights,
    );
    expect(scores).toEqual([
      { rowid: 1, score: 0.75 },
      { rowid: 2, score: 0.25 },
    ]);
  });

  it('orders ties by rowid and answers nothing for no hits', () => {
    const tied = coverageScores(
      [
        { rowid: 9, rank: -2, terms: '血糖' },
        { rowid: 3, rank: -2, terms: '血糖' },
      ],
      weights,
    );
    expect(tied.map((hit) => hit.rowid)).toEqual([3, 9]);
    expect(coverageScores([], weights)).toEqual([]);
  });

  it('scores 0 when the query words carry no weight', () => {
    expect(coverageScores([{ rowid: 1, rank: -1, terms: 'x' }], new Map([['x', 0]]))).toEqual([{ rowid: 1, score: 0 }]);
  });
});

describe('fuse', () => {
  it('keeps a single ranking as it is, labelled by where it came from', () => {
    const keyword = [{ rowid: 2, score: 0.9 }];
    expect(fuse(keyword, [])).toEqual([{ rowid: 2, score: 0.9, matchType: 'keyword' }]);
    expect(fuse([], keyword)).toEqual([{ rowid: 2, score: 0.9, matchType: 'vector' }]);
    expect(fuse([], [])).toEqual([]);
  });

  it('orders by weighted reciprocal rank, the vector list weighing more than the keyword list', () => {
    // Each list ranks a different passage first: the vector list's first wins.
    const fused = fuse(
      [
        { rowid: 1, score: 0.9 },
        { rowid: 2, score: 0.5 },
      ],
      [
        { rowid: 2, score: 0.8 },
        { rowid: 1, score: 0.4 },
      ],
    );
    expect(fused.map((hit) => hit.rowid)).toEqual([2, 1]);
  });

  it('puts a passage found by both above one found by one, with the better of its scores', () => {
    const fused = fuse(
      [
        { rowid: 7, score: 0.95 },
        { rowid: 1, score: 0.6 },
      ],
      [
        { rowid: 1, score: 0.3 },
        { rowid: 8, score: 0.9 },
      ],
    );
    expect(fused).toEqual([
      { rowid: 1, score: 0.6, matchType: 'hybrid' },
      { rowid: 8, score: 0.9, matchType: 'vector' },
      { rowid: 7, score: 0.95, matchType: 'keyword' },
    ]);
  });
});
