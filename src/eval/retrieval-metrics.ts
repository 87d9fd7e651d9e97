/** Graded relevance of instances: key `<object type id>:<primary key values joined by |>` → grade 1..3. */
export type Judgements = ReadonlyMap<string, number>;

/** The scores of one query; instance scores are absent when the query labels no instance. */
export interface QueryScores {
  conceptHit3: number;
  recall10?: number;
  mrr10?: number;
  ndcg10?: number;
}

const CUTOFF = 10;

/** 1 when any labelled concept is among the first three the search listed, else 0. */
export function conceptHitAt3(ranked: readonly string[], relevant: readonly string[]): number {
  return ranked.slice(0, 3).some((id) => relevant.includes(id)) ? 1 : 0;
}

/**
 * Relevant instances in the first ten over those there could be (the relevant count, capped at ten):
 * a query with fifty relevant instances is not punished for a page of ten.
 */
export function recallAt10(ranked: readonly string[], judgements: Judgements): number {
  const possible = Math.min(judgements.size, CUTOFF);
  if (possible === 0) return 0;
  const found = ranked.slice(0, CUTOFF).filter((key) => (judgements.get(key) ?? 0) > 0).length;
  return found / possible;
}

/** 1 / rank of the first relevant instance within the first ten, 0 when none is there. */
export function mrrAt10(ranked: readonly string[], judgements: Judgements): number {
  const first = ranked.slice(0, CUTOFF).findIndex((key) => (judgements.get(key) ?? 0) > 0);
  return first < 0 ? 0 : 1 / (first + 1);
}

const dcg = (grades: number[]): number =>
  grades.reduce((sum, grade, rank) => sum + (2 ** grade - 1) / Math.log2(rank + 2), 0);

/** DCG of the first ten (gain 2^grade − 1) over the DCG of the best possible order of the labels. */
export function ndcgAt10(ranked: readonly string[], judgements: Judgements): number {
  const ideal = dcg([...judgements.values()].sort((a, b) => b - a).slice(0, CUTOFF));
  if (ideal === 0) return 0;
  return dcg(ranked.slice(0, CUTOFF).map((key) => judgements.get(key) ?? 0)) / ideal;
}

export function scoreQuery(
  concepts: readonly string[],
  relevantConcepts: readonly string[],
  instances: readonly string[],
  judgements: Judgements,
): QueryScores {
  const scores: QueryScores = { conceptHit3: conceptHitAt3(concepts, relevantConcepts) };
  if (judgements.size === 0) return scores;
  return {
    ...scores,
    recall10: recallAt10(instances, judgements),
    mrr10: mrrAt10(instances, judgements),
    ndcg10: ndcgAt10(instances, judgements),
  };
}

/** Mean of the defined values (0 for none). */
export function mean(values: (number | undefined)[]): number {
  const defined = values.filter((value): value is number => value !== undefined);
  return defined.length === 0 ? 0 : defined.reduce((sum, value) => sum + value, 0) / defined.length;
}

/** The value at quantile q (0..1) of the sorted values, nearest rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
