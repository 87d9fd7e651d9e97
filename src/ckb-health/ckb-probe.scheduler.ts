import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
} from '@nestjs/common';
import type { CkbConfig } from '../config';
import { configToken } from '../config';
import { CkbCircuit } from './ckb-circuit';
import { CkbPort } from './ckb.port';
import { CkbStateStore } from './state/ckb-state.store';

/** Refreshes the shared CKB state in the background, and closes the CKB session and state store on shutdown. */
@Injectable()
export class CkbProbeScheduler implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('CkbProbe');
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(configToken('ckb')) private readonly config: CkbConfig,
    private readonly circuit: CkbCircuit,
    private readonly ckb: CkbPort,
    private readonly store: CkbStateStore,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled || this.config.probeIntervalSeconds === 0) return;
    // A first probe at once warms the CKB session and fills the shared state before the first request.
    void this.probe();
    this.timer = setInterval(() => void this.probe(), this.config.probeIntervalSeconds * 1000);
    // The probe must never keep a finished process alive.
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.ckb.close(), this.store.close()]);
  }

  private async probe(): Promise<void> {
    try {
      const result = await this.circuit.probe();
      if (!result.available && result.reason !== 'cooldown') this.logger.warn(`CKB unavailable: ${result.reason}`);
    } catch (error) {
      this.logger.warn(`CKB probe failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
