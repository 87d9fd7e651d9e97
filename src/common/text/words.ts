import { normalizeText } from './normalize-text';

/**
 * Word segmentation with `Intl.Segmenter('zh')`, which splits Chinese into words and other scripts at
 * spaces and punctuation. Shared by the search index (what a document's words are) and the input limits
 * (how many distinct words a query may carry), so both count the same words. Text is cut at sentence ends
 * into chunks under 10k characters because the segmenter slows down sharply on very long strings.
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

/** Word-like tokens of a text in its searched form (see normalizeText: NFKC, lower case, simplified Chinese). */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const chunk of chunks(normalizeText(text))) {
    for (const piece of segmenter.segment(chunk)) {
      if (piece.isWordLike) tokens.push(piece.segment);
    }
  }
  return tokens;
}

/** The distinct words of a text, in order of first appearance. */
export function distinctWords(text: string): string[] {
  return [...new Set(tokenize(text))];
}
