import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { AccountContext } from '../auth/account';
import { matchedRouteAccess } from './route-access';

/**
 * Rate limits with one bucket per account (client IP when anonymous) across every route (SPEC §5);
 * open routes (probes, metrics) are never limited. The client IP honours TRUST_PROXY only.
 */
@Injectable()
export class AccountThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const account = request.account as AccountContext | undefined;
    if (account?.id) return `account:${account.id}`;
    return `ip:${await super.getTracker(request)}`;
  }

  /** The library keys by controller and handler too, which gave every route its own bucket. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return Promise.resolve(true);
    return Promise.resolve(matchedRouteAccess(this.reflector, context) === 'open');
  }
}
