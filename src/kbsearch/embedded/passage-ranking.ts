import { MatchType } from '../kb.types';

/** A passage (by rowid) and its score in [0, 1]. */
export interface Scored {
  rowid: number;
  score: number;
}

export interface Fused extends Scored {
  matchType: MatchType;
}

/** A BM25 hit as SQLite returns it: FTS5's rank (lower is better) and the passage's indexed words. */
export interface KeywordHit {
  rowid: number;
  rank: number;
  terms: string;
}

const RRF_K = 60;
const VECTOR_WEIGHT = 0.7;
const KEYWORD_WEIGHT = 0.3;

/**
 * IDF (BM25's, smoothed to stay positive) of each query word, from how many of `passageCount` passages
 * hold it. A word no passage holds weighs as much as the query's most common word: its rarity is unknown
 * (often a function word the segmenter cut differently), but it still counts, so "火星殖民计划" does not
 * fully match a passage that only says 计划.
 */
export function termWeights(
  words: string[],
  passagesWith: Map<string, number>,
  passageCount: number,
): Map<string, number> {
  const idf = (doc: number): number => Math.log(1 + (passageCount - doc + 0.5) / (doc + 0.5));
  const known = [...passagesWith.values()].map(idf);
  const unknown = known.length > 0 ? Math.min(...known) : 0;
  return new Map(words.map((word) => [word, passagesWith.has(word) ? idf(passagesWith.get(word)!) : unknown]));
}

/**
 * Keyword scores in [0, 1]: the share of the query's weight a passage covers times 0.6–1.0 by BM25
 * relative to the best hit, so a passage with every informative word scores at least 0.6 and the best
 * one 1. Best first; ties by rowid. `hits` come in BM25 order (best first).
 */
export function coverageScores(hits: KeywordHit[], weights: Map<string, number>): Scored[] {
  if (hits.length === 0) return [];
  const total = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const best = -hits[0].rank;
  return hits
    .map((hit) => {
      // Words are joined by single spaces and hold none: a native substring search finds a whole word
      // without splitting the passage's hundreds of words into a set.
      const terms = ` ${hit.terms} `;
      let covered = 0;
      for (const [term, weight] of weights) if (terms.includes(` ${term} `)) covered += weight;
      const relative = best > 0 ? -hit.rank / best : 1;
      return { rowid: hit.rowid, score: total > 0 ? (covered / total) * (0.6 + 0.4 * relative) : 0 };
    })
    .sort((a, b) => b.score - a.score || a.rowid - b.rowid);
}

/**
 * One ranking from the keyword and vector lists: weighted reciprocal rank fusion (k 60, vector 0.7,
 * keyword 0.3, as WeKnora) orders them, and a passage's score is the better of its two scores.
 */
export function fuse(keyword: Scored[], vector: Scored[]): Fused[] {
  if (vector.length === 0) return keyword.map((hit) => ({ ...hit, matchType: 'keyword' }));
  if (keyword.length === 0) return vector.map((hit) => ({ ...hit, matchType: 'vector' }));
  const byRowid = new Map<number, Fused & { rrf: number; sources: number }>();
  const add = (hits: Scored[], weight: number, source: number): void => {
    hits.forEach((hit, rank) => {
      const known = byRowid.get(hit.rowid) ?? { rowid: hit.rowid, score: 0, rrf: 0, sources: 0, matchType: 'hybrid' };
      known.rrf += weight / (RRF_K + rank + 1);
      known.score = Math.max(known.score, hit.score);
      known.sources |= source;
      byRowid.set(hit.rowid, known);
    });
  };
  add(vector, VECTOR_WEIGHT, 1);
  add(keyword, KEYWORD_WEIGHT, 2);
  return [...byRowid.values()]
    .sort((a, b) => b.rrf - a.rrf || a.rowid - b.rowid)
    .map(({ rowid, score, sources }) => ({
      rowid,
      score,
      matchType: sources === 3 ? 'hybrid' : sources === 1 ? 'vector' : 'keyword',
    }));
}
