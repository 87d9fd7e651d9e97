import { Injectable, OnModuleInit } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { HealthRegistry, withTimeout } from '../health/health-registry';
import { KnowledgeNetworkPort } from './knowledge-network.port';

/** Readiness follows the knowledge-network adapter: which networks serve, which failed, which search mode. */
@Injectable()
export class KnowledgeNetworkHealth implements OnModuleInit {
  constructor(
    private readonly registry: HealthRegistry,
    private readonly indicators: HealthIndicatorService,
    private readonly kn: KnowledgeNetworkPort,
  ) {}

  onModuleInit(): void {
    const name = 'knowledge_network';
    this.registry.register({
      name,
      readiness: true,
      check: withTimeout(this.indicators, name, 5000, async () => {
        const health = await this.kn.health();
        const indicator = this.indicators.check(name);
        return health.ready ? indicator.up(health.details) : indicator.down(health.details);
      }),
    });
  }
}
