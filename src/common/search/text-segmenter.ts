import { LRUCache } from 'lru-cache';
import { distinctWords, tokenize } from '../text/words';

/**
 * The words of recent queries: one kn_search segments its query a dozen times (concepts, each object
 * type's expression and top k), and segmenting is the costly part of building an expression.
 */
const recentWords = new LRUCache<string, readonly string[]>({ max: 256 });
const MEMO_LENGTH = 512;

function wordsOf(query: string): readonly string[] {
  if (query.length > MEMO_LENGTH) return distinctWords(query);
  let words = recentWords.get(query);
  if (!words) {
    words = Object.freeze(distinctWords(query));
    recentWords.set(query, words);
  }
  return words;
}

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
  const unique = wordsOf(query);
  // Words nearly every document has add cost but no ranking signal; keep them only if nothing else is left.
  if (skip && unique.some((token) => !skip.has(token))) return unique.filter((token) => !skip.has(token));
  return [...unique];
}
