import { distinctWords, tokenize } from '../text/words';

/** The text as stored in the FTS5 `unicode61` index: its words joined with spaces, so BM25 ranks words. */
export function segmentForIndex(text: string): string {
  return tokenize(text).join(' ');
}

/**
 * An FTS5 query string of the query's distinct tokens, each quoted as a phrase (so no token can be
 * read as FTS syntax), joined with AND or OR. Empty when the query has no word-like token.
 */
export function ftsQuery(query: string, joiner: 'AND' | 'OR', skip?: ReadonlySet<string>): string {
  return queryWords(query, skip)
    .map((token) => `"${token.replace(/"/g, '""')}"`)
    .join(` ${joiner} `);
}

/** The words a keyword search looks for, in order: the phrases of `ftsQuery`, unquoted. */
export function queryWords(query: string, skip?: ReadonlySet<string>): string[] {
  // The caller's input limits already bound the number of distinct words (MAX_SEARCH_TERMS).
  const unique = distinctWords(query);
  // Words nearly every document has add cost but no ranking signal; keep them only if nothing else is left.
  if (skip && unique.some((token) => !skip.has(token))) return unique.filter((token) => !skip.has(token));
  return unique;
}
