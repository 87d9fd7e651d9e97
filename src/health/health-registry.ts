import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';

export type HealthCheck = () => Promise<HealthIndicatorResult>;

export interface RegisteredIndicator {
  name: string;
  /** Readiness depends on it; otherwise it only shows in /health. */
  readiness: boolean;
  check: HealthCheck;
}

/**
 * Where feature modules register their health indicators (knowledge network, CKB, …). Liveness never
 * consults it; readiness uses the ones marked `readiness`; /health shows them all.
 */
@Injectable()
export class HealthRegistry {
  private readonly indicators: RegisteredIndicator[] = [];
  private shuttingDown = false;

  constructor(private readonly indicatorService: HealthIndicatorService) {}

  register(indicator: RegisteredIndicator): void {
    this.indicators.push(indicator);
  }

  readinessChecks(): HealthCheck[] {
    return [this.lifecycleCheck, ...this.indicators.filter((entry) => entry.readiness).map((entry) => entry.check)];
  }

  allChecks(): HealthCheck[] {
    return [this.lifecycleCheck, ...this.indicators.map((entry) => entry.check)];
  }

  /** Called on SIGTERM: readiness fails so the load balancer stops routing here while requests drain. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  private readonly lifecycleCheck: HealthCheck = () => {
    const indicator = this.indicatorService.check('lifecycle');
    return Promise.resolve(
      this.shuttingDown ? indicator.down({ state: 'shutting_down' }) : indicator.up({ state: 'serving' }),
    );
  };
}

/** Runs an indicator with a deadline; a slow dependency reports down instead of hanging the probe. */
export function withTimeout(
  indicatorService: HealthIndicatorService,
  name: string,
  timeoutMs: number,
  check: HealthCheck,
): HealthCheck {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<HealthIndicatorResult>((resolve) => {
      timer = setTimeout(
        () => resolve(indicatorService.check(name).down({ message: `timed out after ${timeoutMs} ms` })),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([
        check().catch((error: unknown) =>
          indicatorService.check(name).down({ message: error instanceof Error ? error.message : String(error) }),
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
}
