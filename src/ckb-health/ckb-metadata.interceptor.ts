import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { map, Observable } from 'rxjs';
import { isToolOutcome, withCkbMetadata } from './ckb-metadata';

/**
 * Adds seed 001's `metadata` to a code tool's REST answer: the handler returns a `ToolOutcome` and
 * this turns it into `{...result, metadata}`, timing the whole handler for `query_time_ms`.
 */
@Injectable()
export class CkbMetadataInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const startedAt = performance.now();
    return next
      .handle()
      .pipe(map((value: unknown) => (isToolOutcome(value) ? withCkbMetadata(value, startedAt) : value)));
  }
}
