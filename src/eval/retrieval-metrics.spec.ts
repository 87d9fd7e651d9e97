import { conceptHitAt3, mrrAt10, ndcgAt10, quantile, recallAt10 } from './retrieval-metrics';

const judged = (entries: [string, number][]): Map<string, number> => new Map(entries);

describe('retrieval metrics', () => {
  it('counts a concept hit only within the first three', () => {
    expect(conceptHitAt3(['a', 'b', 'c', 'd'], ['c'])).toBe(1);
    expect(conceptHitAt3(['a', 'b', 'c', 'd'], ['d'])).toBe(0);
  });

  it('caps recall at ten relevant instances', () => {
    const many = judged(Array.from({ length: 20 }, (_, i): [string, number] => [`x:${i}`, 1]));
    expect(
      recallAt10(
        Array.from({ length: 10 }, (_, i) => `x:${i}`),
        many,
      ),
    ).toBe(1);
    expect(
      recallAt10(
        ['x:0', 'y:1'],
        judged([
          ['x:0', 3],
          ['x:1', 1],
        ]),
      ),
    ).toBe(0.5);
  });

  it('takes the reciprocal rank of the first relevant instance within ten', () => {
    expect(mrrAt10(['a', 'b', 'x'], judged([['x', 1]]))).toBeCloseTo(1 / 3);
    expect(mrrAt10([...'abcdefghij', 'x'], judged([['x', 3]]))).toBe(0);
  });

  it('gives nDCG 1 for the ideal order and less when grades are swapped', () => {
    const grades = judged([
      ['a', 3],
      ['b', 1],
    ]);
    expect(ndcgAt10(['a', 'b'], grades)).toBeCloseTo(1);
    const swapped = (1 + 7 / Math.log2(3)) / (7 + 1 / Math.log2(3));
    expect(ndcgAt10(['b', 'a'], grades)).toBeCloseTo(swapped);
    expect(ndcgAt10(['z'], grades)).toBe(0);
  });

  it('reads quantiles by nearest rank', () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 0.95)).toBe(5);
  });
});
