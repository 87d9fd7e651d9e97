import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { ConceptType } from '../knowledge-network/knowledge-network.types';
import { SearchScope } from './knsearch.types';

/** Concept types a search_scope enables (all by default); none enabled is a 400 as upstream. */
export function scopeConceptTypes(scope: SearchScope | undefined): Set<ConceptType> {
  const types = new Set<ConceptType>();
  if (scope?.include_object_types !== false) types.add('object_type');
  if (scope?.include_relation_types !== false) types.add('relation_type');
  if (scope?.include_action_types !== false) types.add('action_type');
  if (types.size === 0)
    throw new AppException(ValidationErrors.Format, 'search_scope must enable at least one concept type');
  return types;
}

/** Trimmed, blank-free, de-duplicated concept groups (first occurrence keeps its place). */
export function normalizeConceptGroups(groups: unknown): string[] {
  if (!Array.isArray(groups)) return [];
  return [
    ...new Set(groups.filter((group): group is string => typeof group === 'string').map((group) => group.trim())),
  ].filter((group) => group !== '');
}
