import { distinctWords } from '../../common/text/words';
import { MetricSearchRequest, MetricType } from '../knowledge-network.types';
import { nameMatchScore } from '../name-match';

interface MetricWords {
  metric: MetricType;
  /** Words of the name and id: a query word found here counts fully. */
  name: Set<string>;
  /** Words of the comment, formula, unit and dimensions: a query word found here counts half. */
  text: Set<string>;
}

// A network's metric list never changes once loaded, so its words are segmented once.
const wordsOf = new WeakMap<MetricType[], MetricWords[]>();

function metricWords(metrics: MetricType[]): MetricWords[] {
  let words = wordsOf.get(metrics);
  if (!words) {
    words = metrics.map((metric) => ({
      metric,
      name: new Set(distinctWords(`${metric.name} ${metric.id}`)),
      text: new Set(
        distinctWords(
          [
            metric.comment ?? '',
            metric.calculation_formula,
            metric.unit ?? '',
            ...(metric.analysis_dimensions ?? []).flatMap((d) => [d.name, d.display_name ?? '', d.comment ?? '']),
          ].join(' '),
        ),
      ),
    }));
    wordsOf.set(metrics, words);
  }
  return words;
}

/**
 * Metric recall over the embedded store's metric types (keyword only): the share of the query's words
 * found in a metric (name words count 1, other text ½) plus upstream's name-match bonus. Direct recall
 * keeps metrics that match at all; expansion recall (`object_type_ids`) keeps every metric scoped to one
 * of those types, best match first, as the upstream's knn does.
 */
export function rankMetrics(metrics: MetricType[], request: MetricSearchRequest): MetricType[] {
  if (request.limit <= 0 || metrics.length === 0) return [];
  const query = distinctWords(request.query);
  const scopes = request.object_type_ids ? new Set(request.object_type_ids) : undefined;
  const scored = metricWords(metrics)
    .filter(({ metric }) => !scopes || (metric.scope_type === 'object_type' && scopes.has(metric.scope_ref)))
    .map((entry, position) => {
      const found = query.reduce((sum, word) => sum + (entry.name.has(word) ? 1 : entry.text.has(word) ? 0.5 : 0), 0);
      const coverage = query.length > 0 ? found / query.length : 0;
      return { metric: entry.metric, position, score: coverage + nameMatchScore(entry.metric.name, request.query) };
    })
    .filter((entry) => scopes !== undefined || entry.score > 0);
  return scored
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, request.limit)
    .map((entry) => entry.metric);
}
