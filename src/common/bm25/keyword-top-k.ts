import { fts5Tokens } from './fts5-tokens';
import { ImpactTopK, TopKAnswer } from './impact-top-k';

/** Per thread: how keyword searches were answered, for benches and diagnostics. */
export const keywordSearchCounts = {
  /** Answered from the impact postings. */
  postings: 0,
  /** A query word FTS5 reads as a multi-token phrase (e.g. "3.14", "don't"): left to FTS5. */
  fts5Fallbacks: 0,
  /** Candidate rows the postings searches looked at. */
  examined: 0,
  /** Rows whose full bm25 score they computed (FTS5 computes it for every matching row). */
  scored: 0,
};

export interface KeywordTopKOptions {
  k: number;
  /** All words first (FTS5 AND), all of any (OR) only when no row has every word; else OR at once. */
  everyFirst: boolean;
  accept?: (rowid: number) => boolean;
}

/** Whether any row holds every word (`every`) or any; undefined when a word is a phrase for FTS5 (see keywordTopK). */
export function keywordMatches(search: ImpactTopK, words: readonly string[], every: boolean): boolean | undefined {
  const terms = singleTokens(words);
  return terms && search.matches(terms, every);
}

/** Each word's one FTS5 token, or undefined when a word is several (a phrase the postings cannot match). */
function singleTokens(words: readonly string[]): string[] | undefined {
  const terms: string[] = [];
  for (const word of words) {
    const tokens = fts5Tokens.of(word);
    if (tokens.length !== 1) return undefined;
    terms.push(tokens[0]);
  }
  return terms;
}

/**
 * The FTS5-equal top k for query words (already segmented, each quoted as one phrase by `ftsQuery`), or
 * undefined when a word is a multi-token phrase for FTS5: phrase positions are not in the postings, so
 * the caller runs its FTS5 query instead.
 */
export function keywordTopK(
  search: ImpactTopK,
  words: readonly string[],
  options: KeywordTopKOptions,
): TopKAnswer | undefined {
  const terms = singleTokens(words);
  if (!terms) {
    keywordSearchCounts.fts5Fallbacks += 1;
    return undefined;
  }
  keywordSearchCounts.postings += 1;
  const { k, accept } = options;
  let answer = search.search({ terms, every: options.everyFirst, k, accept });
  if (options.everyFirst && answer.hits.length === 0 && terms.length > 1) {
    const any = search.search({ terms, every: false, k, accept });
    answer = { hits: any.hits, examined: answer.examined + any.examined, scored: answer.scored + any.scored };
  }
  keywordSearchCounts.examined += answer.examined;
  keywordSearchCounts.scored += answer.scored;
  return answer;
}
