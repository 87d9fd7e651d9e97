import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import {
  ActionType,
  ConceptType,
  KnSchema,
  ObjectType,
  RelationType,
  ScoreChannels,
} from '../knowledge-network/knowledge-network.types';
import { nameMatchScore } from '../knowledge-network/name-match';

export interface RecalledConcepts {
  schema: KnSchema;
  objects: ObjectType[];
  relations: RelationType[];
  actions: ActionType[];
  /** Object type id → its relevance to the query (0 when nothing matched). */
  objectScores: Map<string, number>;
  /** `<concept_type>:<id>` → per-channel scores, when search is hybrid or reranked. */
  channels: Map<string, ScoreChannels>;
}

const ALL_TYPES: ConceptType[] = ['object_type', 'relation_type', 'action_type'];

/**
 * kn_search concept retrieval (upstream §2.4 A/B): relations ranked and cut to top_k, objects ranked by
 * relevance (their endpoints always kept), actions of the selected objects or matched.
 */
export class ConceptRecall {
  constructor(private readonly kn: KnowledgeNetworkPort) {}

  async recall(
    knId: string,
    query: string,
    topK: number,
    rerank: boolean,
    groups: string[],
  ): Promise<RecalledConcepts> {
    const schema = await this.kn.exportSchema(knId);
    const hits = await this.kn.searchConcepts(knId, {
      query,
      concept_types: ALL_TYPES,
      limit: 1000,
      concept_groups: groups,
    });
    const score = new Map(hits.map((hit) => [`${hit.concept_type}:${hit.id}`, hit.score]));
    const channels = new Map(
      hits.flatMap((hit) => (hit.score_channels ? [[`${hit.concept_type}:${hit.id}`, hit.score_channels]] : [])),
    ) as Map<string, ScoreChannels>;
    const scoreOf = (kind: ConceptType, id: string): number => score.get(`${kind}:${id}`) ?? 0;
    const inScope = this.scopeFilter(schema, groups);
    const objects = schema.object_types.filter((type) => inScope.has(type.id));
    const names = new Map(schema.object_types.map((type) => [type.id, type.name || type.id]));
    const relationScore = (relation: RelationType): number =>
      scoreOf('relation_type', relation.id) +
      relationTextScore(relation, names, query) +
      0.5 *
        Math.max(
          scoreOf('object_type', relation.source_object_type_id),
          scoreOf('object_type', relation.target_object_type_id),
        );
    let relations = schema.relation_types.filter(
      (r) => inScope.has(r.source_object_type_id) && inScope.has(r.target_object_type_id),
    );
    if (rerank) relations = stableSortBy(relations, relationScore);
    relations = relations.slice(0, topK);
    const selected = this.selectObjects(objects, relations, topK, (type) => scoreOf('object_type', type.id));
    const selectedIds = new Set(selected.map((type) => type.id));
    const actions = stableSortBy(
      schema.action_types.filter(
        (a) => inScope.has(a.object_type_id) && (selectedIds.has(a.object_type_id) || scoreOf('action_type', a.id) > 0),
      ),
      (action) => scoreOf('action_type', action.id),
    );
    const objectScores = new Map(objects.map((type) => [type.id, scoreOf('object_type', type.id)]));
    return { schema, objects: selected, relations, actions, objectScores, channels };
  }

  /**
   * The object types to show, most relevant first. Kept: every endpoint of a kept relation, every other
   * type the query matched (up to top_k), then unmatched types while the budget lasts. Order: relevance,
   * then being an endpoint, then schema order, so topology only breaks ties.
   */
  private selectObjects(
    objects: ObjectType[],
    relations: RelationType[],
    topK: number,
    scoreOf: (type: ObjectType) => number,
  ): ObjectType[] {
    const endpointIds = new Set(relations.flatMap((r) => [r.source_object_type_id, r.target_object_type_id]));
    const ranked = objects
      .map((type, position) => ({ type, position, score: scoreOf(type), endpoint: endpointIds.has(type.id) }))
      .sort((a, b) => b.score - a.score || Number(b.endpoint) - Number(a.endpoint) || a.position - b.position);
    if (relations.length === 0) return ranked.slice(0, 2 * topK).map((entry) => entry.type);
    const budget = Math.max(2 * relations.length, topK);
    const others = ranked.filter((entry) => !entry.endpoint);
    const matched = others.filter((entry) => entry.score > 0).slice(0, topK);
    const endpoints = ranked.length - others.length;
    const unmatched = others
      .filter((entry) => entry.score <= 0)
      .slice(0, Math.max(0, budget - endpoints - matched.length));
    const kept = new Set([...matched, ...unmatched]);
    return ranked.filter((entry) => entry.endpoint || kept.has(entry)).map((entry) => entry.type);
  }

  private scopeFilter(schema: KnSchema, groups: string[]): Set<string> {
    if (groups.length === 0) return new Set(schema.object_types.map((type) => type.id));
    return new Set(
      schema.concept_groups.filter((group) => groups.includes(group.id)).flatMap((group) => group.object_type_ids),
    );
  }
}

/** Upstream's reranker fallback over `"<source> <relation>，<comment> <target>"`. */
function relationTextScore(relation: RelationType, names: Map<string, string>, query: string): number {
  const q = query.toLowerCase();
  let score = nameMatchScore(relation.name, query);
  if (relation.comment && relation.comment.toLowerCase().includes(q)) score += 0.2;
  const ends = [names.get(relation.source_object_type_id) ?? '', names.get(relation.target_object_type_id) ?? ''];
  if (ends.some((name) => name !== '' && q.includes(name.toLowerCase()))) score += 0.1;
  return score;
}

function stableSortBy<T>(items: T[], score: (item: T) => number): T[] {
  return items
    .map((item, position) => ({ item, position, score: score(item) }))
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .map((entry) => entry.item);
}
