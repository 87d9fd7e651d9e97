import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { KnCondition, ObjectInstance, ObjectType } from '../knowledge-network/knowledge-network.types';
import { nameMatcher } from '../knowledge-network/name-match';
import { KnSearchNode } from './knsearch.types';
import { RetrievalSettings } from './retrieval-config';

const TEXT_TYPE = /^(text|string|varchar|char)(\[.*)?$/i;
const MAX_TYPES = 20;
/** The weight of the hits of an object type the query does not match as a concept at all. */
const TYPE_FLOOR = 0.5;
/** A type whose best hit is weak is not lifted to the top: its hits count against at least this share of the best overall. */
const OVERALL_SHARE = 0.5;

/**
 * kn_search "M0 nodes": per selected object type, recall instances whose text properties match the
 * query, score them (relevance within their type, weighed by the type's relevance, or a name match),
 * keep the best few per type and drop those far below the overall best.
 */
export class InstanceRecall {
  constructor(private readonly kn: KnowledgeNetworkPort) {}

  /**
   * `typeScores` (object type id → concept relevance) weigh each type's hits: keyword scores of different
   * types' tables are not comparable, so a hit counts relative to its own type's best, times how relevant
   * the type is (from TYPE_FLOOR for an unmatched type to 1 for the best).
   */
  async recall(
    knId: string,
    query: string,
    types: ObjectType[],
    settings: RetrievalSettings,
    typeScores: ReadonlyMap<string, number> = new Map(),
  ): Promise<KnSearchNode[]> {
    const searchable = types.filter((type) => this.fields(type).length > 0).slice(0, MAX_TYPES);
    // Only the first few by keyword score, or those matched by name or an exact value, can be kept below.
    const answers = await this.kn.queryInstanceBatch(
      knId,
      searchable.map((type) => ({
        otId: type.id,
        query: {
          condition: this.condition(type, query, settings),
          limit: settings.initialCandidateCount,
          shortlist: { first: settings.perTypeInstanceLimit, named: query },
        },
      })),
    );
    const perType = answers.map(({ datas }, i) => datas.map((instance) => ({ type: searchable[i], instance })));
    const divisor = this.divisors(perType, searchable, typeScores);
    const byName = nameMatcher(query, settings.exactNameMatchScore);
    const kept = perType.flatMap((hits) =>
      hits
        .map(({ type, instance }) => this.node(type, instance, query, byName, divisor.get(type.id)!, settings))
        .sort((a, b) => b.score - a.score)
        .slice(0, settings.perTypeInstanceLimit)
        .filter((node) => node.score >= settings.minDirectRelevance),
    );
    kept.sort((a, b) => b.score - a.score);
    const floor =
      settings.enableGlobalRatioFilter && kept.length > 0
        ? kept[0].score * settings.globalFinalScoreRatio
        : Number.NEGATIVE_INFINITY;
    const shown = kept.filter((node, position) => position === 0 || node.score >= floor);
    // Properties are cut to size only on the nodes that are answered.
    if (settings.enablePropertyFilter) for (const node of shown) node.properties = this.trim(node.properties, settings);
    return shown;
  }

  /**
   * Per object type, what a keyword score is divided by to give its relevance: the type's best score (at
   * least OVERALL_SHARE of the best of all types), over the type's weight.
   */
  private divisors(
    perType: { type: ObjectType; instance: ObjectInstance }[][],
    types: ObjectType[],
    typeScores: ReadonlyMap<string, number>,
  ): Map<string, number> {
    const scoreOf = (hits: { instance: ObjectInstance }[]): number =>
      Math.max(...hits.map(({ instance }) => instance._score ?? 0), Number.EPSILON);
    const overall = scoreOf(perType.flat());
    const bestType = Math.max(...types.map((type) => typeScores.get(type.id) ?? 0), Number.EPSILON);
    return new Map(
      types.map((type, i) => {
        const weight = TYPE_FLOOR + (1 - TYPE_FLOOR) * ((typeScores.get(type.id) ?? 0) / bestType);
        return [type.id, Math.max(scoreOf(perType[i]), OVERALL_SHARE * overall) / weight];
      }),
    );
  }

  /** Text properties a query can be matched against (upstream: text-typed with knn, == or match). */
  fields(type: ObjectType): string[] {
    return type.data_properties
      .filter(
        (p) =>
          TEXT_TYPE.test(p.type) && p.condition_operations.some((op) => op === 'match' || op === '==' || op === 'knn'),
      )
      .map((p) => p.name);
  }

  private condition(type: ObjectType, query: string, settings: RetrievalSettings): KnCondition {
    const properties = type.data_properties.filter((p) => this.fields(type).includes(p.name));
    const subs: KnCondition[] = [];
    if (properties.some((p) => p.condition_operations.includes('knn'))) {
      subs.push({
        operation: 'knn',
        field: '*',
        value: query,
        value_from: 'const',
        limit_key: 'k',
        limit_value: settings.perTypeInstanceLimit,
      });
    }
    if (properties.some((p) => p.condition_operations.includes('match'))) {
      subs.push({ operation: 'match', field: '*', value: query, value_from: 'const' });
    }
    for (const property of properties) {
      if (subs.length >= settings.maxSemanticSubConditions) break;
      if (property.condition_operations.includes('=='))
        subs.push({ operation: '==', field: property.name, value: query, value_from: 'const' });
    }
    return { operation: 'or', sub_conditions: subs };
  }

  private node(
    type: ObjectType,
    instance: ObjectInstance,
    query: string,
    /** The name match score of a name against the query (nameMatcher). */
    nameScore: (name: string) => number,
    divisor: number,
    settings: RetrievalSettings,
  ): KnSearchNode {
    const { _instance_identity, _display, _score, _score_channels, ...properties } = instance;
    const name = _display ?? String(properties[type.display_key ?? ''] ?? '');
    const byName = nameScore(name);
    const exactField = Object.values(properties).some((value) => typeof value === 'string' && value === query);
    const relevance = typeof _score === 'number' ? _score / divisor : exactField ? settings.exactNameMatchScore : 0;
    return {
      object_type_id: type.id,
      object_type_name: type.name,
      instance_name: name,
      unique_identities: _instance_identity,
      properties,
      score: Math.max(relevance, byName),
      ...(_score_channels ? { _score_channels } : {}),
    };
  }

  private trim(properties: Record<string, unknown>, settings: RetrievalSettings): Record<string, unknown> {
    const keys = Object.keys(properties).sort().slice(0, settings.maxPropertiesPerInstance);
    return Object.fromEntries(
      keys.map((key) => {
        const value = properties[key];
        // A string no longer in UTF-16 units than the limit has no more code points than it either.
        if (typeof value !== 'string' || value.length <= settings.maxPropertyValueLength) return [key, value];
        const runes = [...value];
        return [
          key,
          runes.length > settings.maxPropertyValueLength
            ? `${runes.slice(0, settings.maxPropertyValueLength).join('')}...`
            : value,
        ];
      }),
    );
  }
}
