import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import type { CkbConfig } from '../config';
import { configToken } from '../config';
import { HealthRegistry, withTimeout } from '../health/health-registry';
import { CkbCircuit } from './ckb-circuit';

/**
 * The `/health` entry for CKB. Not a readiness check: the code tools degrade to the local graph
 * without CKB, so CKB being down must never take the service out of rotation.
 */
@Injectable()
export class CkbHealthIndicator implements OnModuleInit {
  constructor(
    @Inject(configToken('ckb')) private readonly config: CkbConfig,
    private readonly registry: HealthRegistry,
    private readonly indicators: HealthIndicatorService,
    private readonly circuit: CkbCircuit,
  ) {}

  onModuleInit(): void {
    // The probe has its own CKB_TIMEOUT_MS deadline; the extra second covers reading the shared state.
    const ckbCheck = withTimeout(this.indicators, 'ckb', this.config.timeoutMs + 1000, () => this.checkCkb());
    this.registry.register({ name: 'ckb', readiness: false, check: ckbCheck });
  }

  /** Probes CKB (skipped while disabled or cooling down) and reports up, down, cooldown or disabled. */
  async checkCkb(): Promise<HealthIndicatorResult> {
    await this.circuit.probe();
    const view = await this.circuit.healthView();
    const indicator = this.indicators.check('ckb');
    return view.state === 'up' || view.state === 'disabled' ? indicator.up({ ...view }) : indicator.down({ ...view });
  }
}
