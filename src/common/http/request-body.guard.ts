import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { configToken, LimitsConfig } from '../../config';
import { BODY_CHECK, BodyCheck, bodyRefusal, checkJsonBody } from './request-body';

/**
 * Runs after authentication and rate limiting, before any pipe: the body the parser produced is checked
 * (depth, Unicode, did it parse at all) so class-transformer, validators and tools never walk a body
 * that could overflow their stacks (SPEC §4 limits). The matched controller may supply its own check.
 * A body refused before routing (413, 415) is refused here, in the matched route's error shape.
 */
@Injectable()
export class RequestBodyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(configToken('limits')) private readonly limits: LimitsConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const check = this.reflector.getAllAndOverride<BodyCheck | undefined>(BODY_CHECK, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<Request>();
    const refusal = bodyRefusal(request);
    if (refusal !== undefined) throw refusal;
    (check ?? checkJsonBody)(request, this.limits);
    return true;
  }
}
