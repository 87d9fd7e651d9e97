import { Global, Inject, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { configToken, KnConfig, OperatorsConfig, UpstreamConfig } from '../config';
import { HealthRegistry } from '../health/health-registry';
import { MetricsService } from '../metrics/metrics.service';
import { ArgumentCheckedOperators } from './argument-checked-operators';
import { EmbeddedOperators } from './embedded/embedded-operators';
import { InstrumentedOperators } from './instrumented-operators';
import { KweaverOperators } from './kweaver/kweaver-operators';
import { OperatorPort } from './operator.port';

/** The one place that picks the operator adapter from OPERATOR_BACKEND, and wraps it. */
export function createOperators(
  operators: OperatorsConfig,
  upstream: UpstreamConfig,
  kn: KnConfig,
  metrics: MetricsService,
): OperatorPort {
  const adapter =
    operators.backend === 'kweaver'
      ? new KweaverOperators(upstream, operators)
      : new EmbeddedOperators(operators, kn.dir);
  // Arguments are checked outside the instrumentation: a refused call made no upstream call to count.
  return new ArgumentCheckedOperators(new InstrumentedOperators(adapter, metrics));
}

@Global()
@Module({
  providers: [
    {
      provide: OperatorPort,
      useFactory: createOperators,
      inject: [configToken('operators'), configToken('upstream'), configToken('kn'), MetricsService],
    },
  ],
  exports: [OperatorPort],
})
export class OperatorsModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(OperatorPort) private readonly operators: OperatorPort,
    private readonly health: HealthRegistry,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /** Shown in /health only: an MCP server or toolbox being down never makes the service unready. */
  onModuleInit(): void {
    this.health.register({
      name: 'operators',
      readiness: false,
      check: () => Promise.resolve(this.indicators.check('operators').up(this.operators.status())),
    });
  }

  /** MCP clients are closed (stdio servers stopped) when the application shuts down. */
  onApplicationShutdown(): Promise<void> {
    return this.operators.close();
  }
}
