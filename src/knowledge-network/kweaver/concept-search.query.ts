import {
  ConceptHit,
  ConceptSearchRequest,
  ConceptType,
  KnCondition,
  MetricSearchRequest,
} from '../knowledge-network.types';
import { asNumber, asRecord, asRecords, asString, JsonRecord } from './json-readers';
import { mapActionType, mapObjectType, mapRelationType } from './bkn-schema.mapper';

/** bkn-backend `QueryConceptsReq` (upstream-contracts §7.2). */
export interface QueryConceptsBody {
  concept_groups?: string[];
  condition: KnCondition;
  sort: { field: string; direction: 'asc' | 'desc' }[];
  limit: number;
  need_total: false;
}

/** The search collection each concept type lives under. */
export const CONCEPT_COLLECTIONS: Record<ConceptType, string> = {
  object_type: 'object-types',
  relation_type: 'relation-types',
  action_type: 'action-types',
};

/** The standard knn+match OR condition (§7.2). */
function knnOrMatch(query: string, limit: number): KnCondition {
  return {
    operation: 'or',
    sub_conditions: [
      { field: '*', operation: 'knn', value: query, value_from: 'const', limit_key: 'k', limit_value: limit },
      { field: '*', operation: 'match', value: query, value_from: 'const' },
    ],
  };
}

function rankedBody(condition: KnCondition, limit: number): QueryConceptsBody {
  return { condition, sort: [{ field: '_score', direction: 'desc' }], limit, need_total: false };
}

/** The standard knn+match OR query, ranked by `_score` (§7.2); empty concept_groups are left out. */
export function conceptSearchBody(request: ConceptSearchRequest): QueryConceptsBody {
  const groups = (request.concept_groups ?? []).map((group) => group.trim()).filter((group) => group !== '');
  const body = rankedBody(knnOrMatch(request.query, request.limit), request.limit);
  if (groups.length > 0) body.concept_groups = [...new Set(groups)];
  return body;
}

/**
 * search_schema's metric recall (§2.2 step 6): direct = the knn+match query; expansion = the AND of
 * `scope_type == object_type`, `scope_ref in [object ids]` and the knn+match query.
 */
export function metricSearchBody(request: MetricSearchRequest): QueryConceptsBody {
  const match = knnOrMatch(request.query, request.limit);
  if (!request.object_type_ids) return rankedBody(match, request.limit);
  return rankedBody(
    {
      operation: 'and',
      sub_conditions: [
        { field: 'scope_type', operation: '==', value: 'object_type', value_from: 'const' },
        { field: 'scope_ref', operation: 'in', value: request.object_type_ids, value_from: 'const' },
        match,
      ],
    },
    request.limit,
  );
}

function conceptHit(conceptType: ConceptType, entry: JsonRecord): ConceptHit {
  const detail =
    conceptType === 'object_type'
      ? mapObjectType(entry)
      : conceptType === 'relation_type'
        ? mapRelationType(entry)
        : mapActionType(entry);
  return { concept_type: conceptType, id: detail.id, name: detail.name, score: asNumber(entry._score) ?? 0, detail };
}

/**
 * Search answers (`{entries:[…]}` per concept type) → hits de-duplicated by type:id (best score
 * kept), sorted by score descending (ties keep upstream order), cut to `limit`.
 */
export function mergeConceptHits(answers: { conceptType: ConceptType; body: unknown }[], limit: number): ConceptHit[] {
  const best = new Map<string, ConceptHit>();
  for (const { conceptType, body } of answers) {
    const entries = asRecords(asRecord(body)?.entries);
    for (const entry of entries) {
      if (!asString(entry.id)) continue;
      const hit = conceptHit(conceptType, entry);
      const key = `${conceptType}:${hit.id}`;
      const seen = best.get(key);
      if (!seen || hit.score > seen.score) best.set(key, hit);
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score).slice(0, Math.max(0, limit));
}
