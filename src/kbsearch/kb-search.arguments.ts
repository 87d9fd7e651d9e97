import { z } from 'zod';
import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { isRecord } from '../common/http/json-inspection';
import { parseInput } from '../capabilities/capability-input';
import { requiredText } from '../common/http/required-text';
import { KbSearchInput, SEARCH_MODES } from './kb.types';

/** Characters (code points, as JSON Schema's maxLength counts them) in a query: the seed's bound. */
export const KB_QUERY_MAX_LENGTH = 2000;

/**
 * `weknora_search`'s arguments exactly as seed 003 §2.1 declares them (names, bounds, defaults and
 * descriptions); the REST route takes the same body. One definition validates both doors.
 */
export const KB_SEARCH_ARGUMENTS = z.object({
  // Advertised as maxLength 2,000 but counted in code points by parseKbSearch: 2,000 CJK or emoji characters pass.
  query: requiredText()
    .meta({ minLength: 1, maxLength: KB_QUERY_MAX_LENGTH })
    .describe(
      'Search query. Can be natural language question or keywords. For best results, include domain-specific terms.',
    ),
  search_mode: z
    .enum(SEARCH_MODES)
    .optional()
    .default('hybrid')
    .describe(
      'Search mode: "hybrid" (recommended) combines vector and keyword search, "vector" for semantic similarity, "keyword" for exact matches.',
    ),
  top_k: z
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .default(10)
    .describe(
      'Maximum number of results to return (1-50). Use smaller values for focused queries, larger for exploratory searches.',
    ),
  min_score: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .default(0.5)
    .describe('Minimum relevance score threshold (0-1). Higher values return more relevant but fewer results.'),
  rerank: z
    .boolean()
    .optional()
    .default(true)
    .describe('Whether to apply reranking for improved relevance ordering. Recommended for important queries.'),
});

/**
 * Validates a search from either door into the documented 400s: a blank query is `query is required`,
 * a query over 2,000 code points names the limit, other problems name the field and the rule. Arguments
 * the schema does not declare are ignored (a credential can never arrive this way).
 */
export function parseKbSearch(body: unknown): KbSearchInput {
  const args = isRecord(body) ? body : {};
  const query = args.query;
  if (typeof query === 'string' && query.trim() === '') {
    throw new AppException(ValidationErrors.Required, 'query is required');
  }
  if (typeof query === 'string' && query.length > KB_QUERY_MAX_LENGTH && [...query].length > KB_QUERY_MAX_LENGTH) {
    throw new AppException(ValidationErrors.Range, `query: at most ${KB_QUERY_MAX_LENGTH} characters`);
  }
  const parsed = parseInput(KB_SEARCH_ARGUMENTS, args);
  return { ...parsed, query: parsed.query.trim() };
}
