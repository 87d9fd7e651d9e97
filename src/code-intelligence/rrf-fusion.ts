/** Reciprocal-rank-fusion constant (the value the seed's reference implementation uses). */
export const RRF_K = 60;

export interface RankedList {
  weight: number;
  /** Best first; duplicates keep their first rank. */
  keys: string[];
}

/** Weighted RRF: score(key) = Σ weight / (k + rank), rank starting at 1. */
export function weightedRrf(lists: RankedList[], k = RRF_K): Map<string, number> {
  const scores = new Map<string, number>();
  for (const list of lists) {
    const seen = new Set<string>();
    list.keys.forEach((key) => {
      if (seen.has(key)) return;
      seen.add(key);
      scores.set(key, (scores.get(key) ?? 0) + list.weight / (k + seen.size));
    });
  }
  return scores;
}

/** The score of a key ranked first in every list: divides scores into a 0–1 relevance. */
export function bestPossibleScore(lists: RankedList[], k = RRF_K): number {
  return lists.reduce((sum, list) => sum + list.weight / (k + 1), 0);
}
