/**
 * Word segmentation for the FTS5 `unicode61` index: `Intl.Segmenter('zh')` splits Chinese into words,
 * which are stored space-joined so BM25 ranks words instead of whole sentences. Text is cut at sentence
 * ends into chunks under 10k characters because the segmenter slows down sharply on very long strings.
 */
const MAX_CHUNK = 8000;
const SENTENCE_END = /[。！？；\n.!?;][^。！？；\n.!?;]*$/;
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

function chunks(text: string): string[] {
  if (text.length <= MAX_CHUNK) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + MAX_CHUNK, text.length);
    if (end < text.length) {
      const cut = text.slice(start, end).search(SENTENCE_END);
      if (cut > 0) end = start + cut + 1;
    }
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/** Lower-cased word-like tokens of a text. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const chunk of chunks(text)) {
    for (const piece of segmenter.segment(chunk)) {
      if (piece.isWordLike) tokens.push(piece.segment.toLowerCase());
    }
  }
  return tokens;
}

/** The text as stored in the FTS index: its tokens joined with spaces. */
export function segmentForIndex(text: string): string {
  return tokenize(text).join(' ');
}

/**
 * An FTS5 query string of the query's distinct tokens, each quoted as a phrase (so no token can be
 * read as FTS syntax), joined with AND or OR. Empty when the query has no word-like token.
 */
export function ftsQuery(query: string, joiner: 'AND' | 'OR', skip?: ReadonlySet<string>): string {
  let unique = [...new Set(tokenize(query))].slice(0, 32);
  // Words nearly every document has add cost but no ranking signal; keep them only if nothing else is left.
  if (skip && unique.some((token) => !skip.has(token)))
    unique = unique.filter((token) => !skip.has(token));
  return unique.map((token) => `"${token.replace(/"/g, '""')}"`).join(` ${joiner} `);
}
