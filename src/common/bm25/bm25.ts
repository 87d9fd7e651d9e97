import { fusedMultiplyAdd } from './fused-multiply-add';

/**
 * FTS5's `bm25()` term by term. FTS5 scores a row as the sum over the query's phrases, in query order,
 * of `idf · ((f·(k1+1)) / (f + k1·(1 − b + b·D/avgdl)))`, where f is the phrase's weighted count in the
 * row (Σ column weight × hits), D the row's token count over all columns, avgdl the table's mean, and
 * idf = ln((N − n + 0.5)/(n + 0.5)) floored at 1e-6 (n: rows holding the phrase). The expressions keep
 * SQLite's operation order, so each factor is bit-identical to the one `bm25()` computes.
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** `log` as a function argument: SQLite's `ln()` is the C library's, whose last bit `Math.log` does not always share. */
export function bm25Idf(rowCount: number, rowsWithTerm: number, log: (x: number) => number): number {
  const idf = log((rowCount - rowsWithTerm + 0.5) / (rowsWithTerm + 0.5));
  return idf <= 0 ? 1e-6 : idf;
}

/** The row-dependent factor of a term's share: the share is `idf * part`. */
export function bm25Part(weightedCount: number, rowTokens: number, averageTokens: number): number {
  return (
    (weightedCount * (BM25_K1 + 1.0)) / (weightedCount + BM25_K1 * (1 - BM25_B + (BM25_B * rowTokens) / averageTokens))
  );
}

/** A row's score from each phrase's idf and part (0 where the row lacks the phrase), in query order. */
export type PhraseSum = (idfs: ArrayLike<number>, parts: ArrayLike<number>) => number;

/** `score += idf * part` rounded twice, as a build without fused multiply-add computes it. */
export const separateSum: PhraseSum = (idfs, parts) => {
  let score = 0.0;
  for (let i = 0; i < idfs.length; i += 1) score += idfs[i] * parts[i];
  return score;
};

/** `score += idf * part` as one fused multiply-add per phrase, as some compilers emit it. */
export const fusedSum: PhraseSum = (idfs, parts) => {
  let score = 0.0;
  for (let i = 0; i < idfs.length; i += 1) score = fusedMultiplyAdd(idfs[i], parts[i], score);
  return score;
};
