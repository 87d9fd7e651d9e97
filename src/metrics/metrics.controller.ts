import { Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { configToken, MetricsConfig } from '../config';
import { AppException } from '../common/errors/app.exception';
import { PublicErrors } from '../common/errors/error-codes';
import { OpenController } from '../common/http/route-prefixes';
import { MetricsService } from './metrics.service';

@ApiExcludeController()
@SkipThrottle()
@OpenController('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    @Inject(configToken('metrics')) private readonly config: MetricsConfig,
  ) {}

  @Get()
  async scrape(@Res() response: Response): Promise<void> {
    if (!this.config.enabled) throw new AppException(PublicErrors.NotFound, 'metrics are disabled');
    response.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
