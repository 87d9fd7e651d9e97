import { Injectable, OnModuleInit } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { HealthRegistry } from '../health/health-registry';
import { CodeIndexPort } from './code-index/code-index.port';

/** The `/health` entry for the code index: what it holds. Not a readiness check (an empty index is valid). */
@Injectable()
export class CodeIndexHealthIndicator implements OnModuleInit {
  constructor(
    private readonly registry: HealthRegistry,
    private readonly indicators: HealthIndicatorService,
    private readonly index: CodeIndexPort,
  ) {}

  onModuleInit(): void {
    this.registry.register({ name: 'code_index', readiness: false, check: () => this.check() });
  }

  check(): Promise<HealthIndicatorResult> {
    return Promise.resolve(this.indicators.check('code_index').up({ ...this.index.status() }));
  }
}
