import { CodeCandidate } from './code-tools.types';

/** The usual estimate for code and English: about four characters per token. */
export const CHARS_PER_TOKEN = 4;
// Below this many tokens, a cut-down candidate is more noise than help.
const MIN_PARTIAL_TOKENS = 32;

export const estimateTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

/** Keeps candidates in order while they fit the budget; the first that does not fit may be cut to fit. */
export function fitToBudget(candidates: CodeCandidate[], budget: number): { kept: CodeCandidate[]; tokens: number } {
  const kept: CodeCandidate[] = [];
  let tokens = 0;
  for (const candidate of candidates) {
    const cost = estimateTokens(candidate.content);
    if (tokens + cost <= budget) {
      kept.push(candidate);
      tokens += cost;
      continue;
    }
    const remaining = budget - tokens;
    if (remaining >= MIN_PARTIAL_TOKENS) {
      kept.push({ ...candidate, content: candidate.content.slice(0, remaining * CHARS_PER_TOKEN), truncated: true });
      tokens += remaining;
    }
    break;
  }
  return { kept, tokens };
}
