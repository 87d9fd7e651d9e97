import { UpstreamObserver } from '../common/http/upstream-client';
import { MetricsService } from './metrics.service';

/** `upstream_calls_total{upstream,outcome}` and `upstream_call_duration_seconds{upstream,outcome}`. */
export function upstreamMetrics(metrics: MetricsService): UpstreamObserver {
  const calls = metrics.counter('upstream_calls_total', 'Upstream HTTP calls by upstream and outcome', [
    'upstream',
    'outcome',
  ]);
  const duration = metrics.histogram(
    'upstream_call_duration_seconds',
    'Upstream HTTP call duration by upstream and outcome',
    ['upstream', 'outcome'],
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  );
  return (upstream, outcome, seconds) => {
    calls.inc({ upstream, outcome });
    duration.observe({ upstream, outcome }, seconds);
  };
}
