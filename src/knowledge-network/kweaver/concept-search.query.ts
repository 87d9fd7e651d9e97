import { ConceptHit, ConceptSearchRequest, ConceptType, KnCondition } from '../knowledge-network.types';
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

/** The standard knn+match OR query, ranked by `_score` (§7.2); empty concept_groups are left out. */
export function conceptSearchBody(request: ConceptSearchRequest): QueryConceptsBody {
  const groups = (request.concept_groups ?? []).map((group) => group.trim()).filter((group) => group !== '');
  const body: QueryConceptsBody = {
    condition: {
      operation: 'or',
      sub_conditions: [
        {
          field: '*',
          operation: 'knn',
          value: request.query,
          value_from: 'const',
          limit_key: 'k',
          limit_value: request.limit,
        },
        { field: '*', operation: 'match', value: request.query, value_from: 'const' },
      ],
    },
    sort: [{ field: '_score', direction: 'desc' }],
    limit: request.limit,
    need_total: false,
  };
  if (groups.length > 0) body.concept_groups = [...new Set(groups)];
  return body;
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
