import { MetricsService } from '../metrics/metrics.service';
import { RecallObserver } from './embedded/recall-channels';

/**
 * `kn_recall_degraded_total{channel,reason}` (a query embedding or rerank call that failed; the request
 * went on without it) and the agreement shadow reranking measured.
 */
export function recallMetrics(metrics: MetricsService): RecallObserver {
  const degraded = metrics.counter(
    'kn_recall_degraded_total',
    'Knowledge-network recalls that went on without a channel (vector or rerank), by reason',
    ['channel', 'reason'],
  );
  const spearman = metrics.histogram(
    'kn_rerank_shadow_spearman',
    'Shadow rerank: Spearman correlation of the cross-encoder order with the served order',
    [],
    [-0.5, 0, 0.25, 0.5, 0.75, 0.9, 0.95, 1],
  );
  const changes = metrics.histogram(
    'kn_rerank_shadow_top5_changes',
    'Shadow rerank: results the cross-encoder would bring into the top 5',
    [],
    [0, 1, 2, 3, 4, 5],
  );
  return {
    degraded: (channel, reason) => degraded.inc({ channel, reason }),
    shadow: (agreement) => {
      spearman.observe(agreement.spearman);
      changes.observe(agreement.top5Changes);
    },
  };
}
