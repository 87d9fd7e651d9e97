/** How far a reranker agrees with the order it was given, as shadow mode reports it. */
export interface RankAgreement {
  /** Spearman's rank correlation of the two orders over the same items, -1..1 (1 = same order). */
  spearman: number;
  /** Items in the reranked top 5 that were not in the original top 5. */
  top5Changes: number;
}

/**
 * Compares an original order (positions 0..n-1) with the order a reranker gave the same items:
 * `reranked[i]` is the original position of the item the reranker put at position i.
 */
export function rankAgreement(reranked: readonly number[]): RankAgreement {
  const n = reranked.length;
  if (n < 2) return { spearman: 1, top5Changes: 0 };
  let squares = 0;
  reranked.forEach((original, position) => {
    squares += (original - position) ** 2;
  });
  const spearman = 1 - (6 * squares) / (n * (n * n - 1));
  const top = Math.min(5, n);
  const top5Changes = reranked.slice(0, top).filter((original) => original >= top).length;
  return { spearman: Math.round(spearman * 10000) / 10000, top5Changes };
}
