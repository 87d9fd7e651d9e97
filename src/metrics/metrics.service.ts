import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { configToken, MetricsConfig } from '../config';

type Labels = readonly string[];

/**
 * Every metric the service defines is exported under this prefix, so its series never collide with another
 * exporter's in a shared Prometheus (`http_request_duration_seconds` is a common name). Features name their
 * instruments without it; the process and Node.js metrics keep their conventional names.
 */
export const METRIC_PREFIX = 'agent_retrieval_';

/** The exported name of one of the service's metrics. */
export const metricName = (name: string): string => (name.startsWith(METRIC_PREFIX) ? name : `${METRIC_PREFIX}${name}`);

/** Latency buckets (seconds) from 5 ms to 30 s, for calls that do real work. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface CallMetricsSpec {
  /** Counter name, `…_total`. */
  total: string;
  /** Histogram name, `…_duration_seconds`. */
  duration: string;
  /** What is counted, for the help text ("MCP tool calls"). */
  what: string;
  labels: Labels;
  buckets?: number[];
}

export interface CallMetrics {
  record(labels: Record<string, string>, seconds: number): void;
}

/**
 * The application's Prometheus registry. Features create their instruments here (get-or-create, so a
 * module can be instantiated twice in tests without "already registered" errors).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<string>;

  constructor(@Inject(configToken('metrics')) config: MetricsConfig) {
    if (config.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = this.histogram(
      'http_request_duration_seconds',
      'HTTP request duration by method, route template and status',
      ['method', 'route', 'status_code'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
  }

  counter(feature: string, help: string, labelNames: Labels = []): Counter<string> {
    const name = metricName(feature);
    return this.existing<Counter<string>>(name) ?? new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  gauge(feature: string, help: string, labelNames: Labels = []): Gauge<string> {
    const name = metricName(feature);
    return this.existing<Gauge<string>>(name) ?? new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  histogram(feature: string, help: string, labelNames: Labels = [], buckets?: number[]): Histogram<string> {
    const name = metricName(feature);
    return (
      this.existing<Histogram<string>>(name) ??
      new Histogram({ name, help, labelNames, buckets, registers: [this.registry] })
    );
  }

  /** A count and a latency histogram over the same labels, recorded together: what every instrumented call site needs. */
  calls(spec: CallMetricsSpec): CallMetrics {
    const by = spec.labels.join(', ');
    const count = this.counter(spec.total, `${spec.what} by ${by}`, spec.labels);
    const duration = this.histogram(
      spec.duration,
      `${spec.what}: duration by ${by}`,
      spec.labels,
      spec.buckets ?? LATENCY_BUCKETS,
    );
    return {
      record: (labels, seconds) => {
        count.inc(labels);
        duration.observe(labels, seconds);
      },
    };
  }

  private existing<T>(name: string): T | undefined {
    return this.registry.getSingleMetric(name) as T | undefined;
  }
}
