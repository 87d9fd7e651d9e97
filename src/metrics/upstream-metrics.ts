import { UpstreamObserver } from '../common/http/upstream-client';
import { MetricsService } from './metrics.service';

/** `upstream_calls_total{upstream,outcome}` and `upstream_call_duration_seconds{upstream,outcome}`. */
export function upstreamMetrics(metrics: MetricsService): UpstreamObserver {
  const calls = metrics.calls({
    total: 'upstream_calls_total',
    duration: 'upstream_call_duration_seconds',
    what: 'Upstream HTTP calls',
    labels: ['upstream', 'outcome'],
  });
  return (upstream, outcome, seconds) => calls.record({ upstream, outcome }, seconds);
}
