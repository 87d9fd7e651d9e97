import { rankAgreement } from './rank-agreement';

describe('rankAgreement', () => {
  it('is a correlation of 1 with no top-5 change for the same order', () => {
    expect(rankAgreement([0, 1, 2, 3, 4, 5, 6])).toEqual({ spearman: 1, top5Changes: 0 });
  });

  it('is a correlation of -1 for the reversed order, and counts newcomers to the top 5', () => {
    expect(rankAgreement([6, 5, 4, 3, 2, 1, 0])).toEqual({ spearman: -1, top5Changes: 2 });
  });

  it('measures a single swap below the top 5 as no top-5 change', () => {
    const agreement = rankAgreement([0, 1, 2, 3, 4, 6, 5]);
    expect(agreement.top5Changes).toBe(0);
    expect(agreement.spearman).toBeCloseTo(1 - 12 / (7 * 48), 4);
  });

  it('treats fewer than two items as full agreement', () => {
    expect(rankAgreement([0])).toEqual({ spearman: 1, top5Changes: 0 });
  });
});
