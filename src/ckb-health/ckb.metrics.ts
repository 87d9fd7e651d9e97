import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsService } from '../metrics/metrics.service';
import { CkbHealthState } from './ckb.types';

/** Values of the `ckb_state` gauge (documented in docs/ckb.md). */
export const CKB_STATE_GAUGE_VALUES: Record<CkbHealthState, number> = {
  up: 1,
  unknown: 0,
  down: 0,
  cooldown: -1,
  disabled: -2,
};

/** CKB instruments: availability gauge, cooldowns entered, probe latency. */
@Injectable()
export class CkbMetrics {
  private readonly state: Gauge<string>;
  private readonly cooldowns: Counter<string>;
  private readonly probeDuration: Histogram<string>;

  constructor(metrics: MetricsService) {
    this.state = metrics.gauge('ckb_state', 'CKB availability: 1 up, 0 down or unknown, -1 cooldown, -2 disabled');
    this.cooldowns = metrics.counter('ckb_cooldowns_total', 'Cooldowns entered after a CKB failure, by reason', [
      'reason',
    ]);
    this.probeDuration = metrics.histogram(
      'ckb_probe_duration_seconds',
      'Latency of the CKB health probe (MCP tools/list), by outcome',
      ['outcome'],
      [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
  }

  observeState(state: CkbHealthState): void {
    this.state.set(CKB_STATE_GAUGE_VALUES[state]);
  }

  cooldownEntered(reason: string): void {
    this.cooldowns.inc({ reason });
  }

  probeFinished(outcome: 'up' | 'down', seconds: number): void {
    this.probeDuration.observe({ outcome }, seconds);
  }
}
