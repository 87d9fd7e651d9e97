import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { KnCondition, ObjectInstance, ObjectType } from '../knowledge-network/knowledge-network.types';
import { nameMatchScore } from '../knowledge-network/name-match';
import { KnSearchNode } from './knsearch.types';
import { RetrievalSettings } from './retrieval-config';

const TEXT_TYPE = /^(text|string|varchar|char)(\[.*)?$/i;
const MAX_TYPES = 20;

/**
 * kn_search "M0 nodes": per selected object type, recall instances whose text properties match the
 * query, score them (relevance normalised to the best hit, or a name match), keep the best few per type
 * and drop those far below the overall best.
 */
export class InstanceRecall {
  constructor(private readonly kn: KnowledgeNetworkPort) {}

  async recall(knId: string, query: string, types: ObjectType[], settings: RetrievalSettings): Promise<KnSearchNode[]> {
    const searchable = types.filter((type) => this.fields(type).length > 0).slice(0, MAX_TYPES);
    const perType = await Promise.all(
      searchable.map(async (type) => {
        const condition = this.condition(type, query, settings);
        const { datas } = await this.kn.queryInstances(knId, type.id, {
          condition,
          limit: settings.initialCandidateCount,
        });
        return datas.map((instance) => ({ type, instance }));
      }),
    );
    const best = Math.max(...perType.flat().map(({ instance }) => instance._score ?? 0), Number.EPSILON);
    const kept = perType.flatMap((hits) =>
      hits
        .map(({ type, instance }) => this.node(type, instance, query, best, settings))
        .sort((a, b) => b.score - a.score)
        .slice(0, settings.perTypeInstanceLimit)
        .filter((node) => node.score >= settings.minDirectRelevance),
    );
    kept.sort((a, b) => b.score - a.score);
    if (!settings.enableGlobalRatioFilter || kept.length === 0) return kept;
    const floor = kept[0].score * settings.globalFinalScoreRatio;
    return kept.filter((node, position) => position === 0 || node.score >= floor);
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
    best: number,
    settings: RetrievalSettings,
  ): KnSearchNode {
    const { _instance_identity, _display, _score, ...properties } = instance;
    const name = _display ?? String(properties[type.display_key ?? ''] ?? '');
    const byName = nameMatchScore(name, query, settings.exactNameMatchScore);
    const exactField = Object.values(properties).some((value) => typeof value === 'string' && value === query);
    const relevance = typeof _score === 'number' ? _score / best : exactField ? settings.exactNameMatchScore : 0;
    return {
      object_type_id: type.id,
      object_type_name: type.name,
      instance_name: name,
      unique_identities: _instance_identity,
      properties: settings.enablePropertyFilter ? this.trim(properties, settings) : properties,
      score: Math.max(relevance, byName),
    };
  }

  private trim(properties: Record<string, unknown>, settings: RetrievalSettings): Record<string, unknown> {
    const keys = Object.keys(properties).sort().slice(0, settings.maxPropertiesPerInstance);
    return Object.fromEntries(
      keys.map((key) => {
        const value = properties[key];
        if (typeof value !== 'string') return [key, value];
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
