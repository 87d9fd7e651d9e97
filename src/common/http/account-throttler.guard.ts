import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import { LRUCache } from 'lru-cache';
import { AccountContext } from '../auth/account';
import { matchedRouteAccess } from './route-access';

/** Client addresses whose bucket this process has seen spent; bounded, each entry living as long as its block. */
const REMEMBERED_BLOCKS = 10_000;

/**
 * Rate limits with one bucket per account (client IP when anonymous) across every route (SPEC §5);
 * open routes (probes, metrics) are never limited. The client IP honours TRUST_PROXY only.
 *
 * Until its token is accepted a caller is anonymous: the AuthGuard counts each request it refuses in
 * the client IP's bucket (`limitAnonymous`), and once that bucket is spent it asks the token authority
 * about no new token from that address (`admitAnonymous`), so made-up tokens cannot become a stream of
 * introspection calls. Whether a bucket is spent is only learnt by counting a hit in it, so this process
 * remembers the blocks it has seen.
 */
@Injectable()
export class AccountThrottlerGuard extends ThrottlerGuard {
  private readonly blockedAddresses = new LRUCache<string, true>({ max: REMEMBERED_BLOCKS });

  /** One hit in the client IP's bucket; 429 when it is spent. Called before `request.account` is set. */
  async limitAnonymous(context: ExecutionContext): Promise<void> {
    await this.canActivate(context);
  }

  /** 429, counting nothing, while this process knows the client IP's bucket to be spent. */
  async admitAnonymous(context: ExecutionContext): Promise<void> {
    const { req, res } = this.getRequestResponse(context);
    const blockLeftMs = this.blockedAddresses.getRemainingTTL(await this.getTracker(req));
    if (blockLeftMs <= 0) return;
    this.setResponseHeader(res, 'Retry-After', Math.ceil(blockLeftMs / 1000));
    throw new ThrottlerException(this.errorMessage);
  }

  /**
   * One hit in an account's bucket for work a request does on its own (each server-side tool call of a chat
   * turn), so a single request cannot spend more than the account may. False when the bucket is spent.
   */
  async chargeAccount(accountId: string): Promise<boolean> {
    // Our skipIf reads configuration only (RATE_LIMIT_ENABLED); it never looks at the context.
    if (this.commonOptions.skipIf?.(undefined as unknown as ExecutionContext)) return true;
    for (const throttler of this.throttlers) {
      const { ttl, limit } = throttler;
      if (typeof ttl !== 'number' || typeof limit !== 'number') continue;
      const blockDuration = typeof throttler.blockDuration === 'number' ? throttler.blockDuration : ttl;
      const key = this.generateKey(undefined as unknown as ExecutionContext, `account:${accountId}`, throttler.name!);
      const { isBlocked } = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name!);
      if (isBlocked) return false;
    }
    return true;
  }

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

  protected override throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    if (detail.tracker.startsWith('ip:') && detail.timeToBlockExpire > 0) {
      this.blockedAddresses.set(detail.tracker, true, { ttl: detail.timeToBlockExpire * 1000 });
    }
    return super.throwThrottlingException(context, detail);
  }
}
