import { Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { OpenController } from '../common/http/route-prefixes';
import { HealthCheck, HealthRegistry } from './health-registry';

/** Kubernetes probes and the Terminus detail view (SPEC §3, §11). */
@ApiExcludeController()
@SkipThrottle()
@OpenController('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly registry: HealthRegistry,
  ) {}

  /** Liveness: the process answers; never touches an upstream. */
  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('alive')
  alive(): { status: 'ok' } {
    return this.live();
  }

  @Get('ready')
  ready(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.run(this.registry.readinessChecks(), response);
  }

  @Get()
  detail(@Res({ passthrough: true }) response: Response): Promise<HealthCheckResult> {
    return this.run(this.registry.allChecks(), response);
  }

  private async run(checks: HealthCheck[], response: Response): Promise<HealthCheckResult> {
    try {
      return await this.health.check(checks);
    } catch (error) {
      // Terminus reports a failed check as a 503 carrying the full result; keep its body.
      const result = (error as { getResponse?: () => HealthCheckResult }).getResponse?.();
      if (!result) throw error;
      response.status(503);
      return result;
    }
  }
}
