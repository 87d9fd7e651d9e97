import { isRecord } from '../../common/http/json-inspection';
import { KbSearchResult, MatchType } from '../kb.types';

/** WeKnora's integer `match_type` (types.MatchType) by number; any other value reads as `hybrid`. */
const MATCH_TYPES: readonly MatchType[] = [
  'vector',
  'keyword',
  'nearby_chunk',
  'history',
  'parent_chunk',
  'relation_chunk',
  'graph',
  'web_search',
  'direct_load',
  'data_analysis',
];

/** The items of one answer, and the total the answer reports when it reports one. */
export interface WeKnoraAnswer {
  items: unknown[];
  totalCount?: number;
}

/**
 * One answer in either shape, told apart per answer: WeKnora's own `{success, data[]}` (v0.7) or seed
 * 003 §6.1's `{results[], total_count}`. Undefined for anything else (or `success: false`).
 */
export function readAnswer(body: unknown): WeKnoraAnswer | undefined {
  if (!isRecord(body) || body.success === false) return undefined;
  if (Array.isArray(body.data)) return { items: body.data };
  if (!Array.isArray(body.results)) return undefined;
  const total = body.total_count;
  const counted = typeof total === 'number' && Number.isSafeInteger(total) && total >= 0;
  return { items: body.results, ...(counted ? { totalCount: total } : {}) };
}

/** WeKnora's `{error: {message}}`, `{error: "..."}` or `{message}`, cut short and on one line. */
export function upstreamMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const error = body.error;
  const text = isRecord(error) ? error.message : typeof error === 'string' ? error : body.message;
  return typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 200) : undefined;
}

/** One `SearchResult` of either shape in this service's shape (match_type number or name). */
export function toResult(item: unknown): KbSearchResult {
  const value = isRecord(item) ? item : {};
  const text = (field: string): string => (typeof value[field] === 'string' ? (value[field] as string) : '');
  const score = typeof value.score === 'number' && Number.isFinite(value.score) ? value.score : 0;
  return {
    id: text('id'),
    content: text('content'),
    score: Math.max(0, Math.min(1, score)),
    knowledge_id: text('knowledge_id'),
    knowledge_title: text('knowledge_title'),
    knowledge_filename: text('knowledge_filename'),
    match_type: matchType(value.match_type),
    ...(typeof value.chunk_index === 'number' ? { chunk_index: value.chunk_index } : {}),
  };
}

function matchType(value: unknown): MatchType {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 && value < MATCH_TYPES.length ? MATCH_TYPES[value] : 'hybrid';
  }
  if (typeof value === 'string') {
    const known = [...MATCH_TYPES, 'embedding', 'keywords'].find((name) => name === value);
    if (known === 'embedding') return 'vector';
    if (known === 'keywords') return 'keyword';
    if (known) return known as MatchType;
  }
  return 'hybrid';
}
