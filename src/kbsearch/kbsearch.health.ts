import { Injectable, OnModuleInit } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { HealthRegistry, withTimeout } from '../health/health-registry';
import { KnowledgeBasePort } from './kb.types';

/**
 * The `/health` entry for knowledge-base search: the backend and, embedded, its index. Not a readiness
 * check: the knowledge networks serve without it.
 */
@Injectable()
export class KnowledgeBaseHealth implements OnModuleInit {
  constructor(
    private readonly registry: HealthRegistry,
    private readonly indicators: HealthIndicatorService,
    private readonly kb: KnowledgeBasePort,
  ) {}

  onModuleInit(): void {
    const name = 'knowledge_base';
    this.registry.register({
      name,
      readiness: false,
      check: withTimeout(this.indicators, name, 5000, () => {
        // Always up: a documents index that failed is told in the details (`state: failed`), but it must
        // not turn /health into a 503 for a service whose networks serve.
        return Promise.resolve(this.indicators.check(name).up(this.kb.health()));
      }),
    });
  }
}
