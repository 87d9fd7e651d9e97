import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { Request } from 'express';
import { AccountContext } from '../auth/account';
import { routeAccess } from './route-prefixes';

/** Rate limits per account when one is known, else per client IP; only API routes are limited. */
@Injectable()
export class AccountThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    const account = request.account as AccountContext | undefined;
    if (account?.id) return Promise.resolve(`account:${account.id}`);
    return Promise.resolve(`ip:${String(request.ip ?? 'unknown')}`);
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return Promise.resolve(true);
    const request = context.switchToHttp().getRequest<Request>();
    return Promise.resolve(routeAccess(request.path) === 'open');
  }
}
