/** kn_search tuning (upstream §2.3 defaults); a caller's value counts only when it is a positive number or a bool. */
export interface RetrievalSettings {
  topK: number;
  initialCandidateCount: number;
  perTypeInstanceLimit: number;
  maxSemanticSubConditions: number;
  minDirectRelevance: number;
  enableGlobalRatioFilter: boolean;
  globalFinalScoreRatio: number;
  exactNameMatchScore: number;
  enablePropertyFilter: boolean;
  maxPropertiesPerInstance: number;
  maxPropertyValueLength: number;
}

type Section = Record<string, unknown>;

const section = (config: Section | undefined, name: string): Section => {
  const value = config?.[name];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Section) : {};
};
const positive = (value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(value, max) : fallback;
const flag = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);

export function retrievalSettings(config: Section | undefined): RetrievalSettings {
  const concept = section(config, 'concept_retrieval');
  const instance = section(config, 'semantic_instance_retrieval');
  const filter = section(config, 'property_filter');
  return {
    topK: Math.floor(positive(concept.top_k, 10, 100)),
    initialCandidateCount: Math.floor(positive(instance.initial_candidate_count, 50, 500)),
    perTypeInstanceLimit: Math.floor(positive(instance.per_type_instance_limit, 5, 100)),
    maxSemanticSubConditions: Math.floor(positive(instance.max_semantic_sub_conditions, 10, 50)),
    minDirectRelevance: positive(instance.min_direct_relevance, 0.3, 1),
    enableGlobalRatioFilter: flag(instance.enable_global_final_score_ratio_filter, true),
    globalFinalScoreRatio: positive(instance.global_final_score_ratio, 0.25, 1),
    exactNameMatchScore: positive(instance.exact_name_match_score, 0.85, 1),
    enablePropertyFilter: flag(filter.enable_property_filter, true),
    maxPropertiesPerInstance: Math.floor(positive(filter.max_properties_per_instance, 20, 1000)),
    maxPropertyValueLength: Math.floor(positive(filter.max_property_value_length, 500, 100000)),
  };
}
