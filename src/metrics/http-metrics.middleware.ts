import type { NextFunction, Request, Response } from 'express';
import { CATCH_ALL_ROUTE } from '../common/http/route-table';
import { MetricsService } from './metrics.service';

/** The matched route template (never the raw URL, which would explode label cardinality). */
export function routeTemplate(request: Request): string {
  const route = (request as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' && route.path !== CATCH_ALL_ROUTE ? route.path : 'unmatched';
}

/** Observes every HTTP request's duration once its response has been written. */
export function httpMetricsMiddleware(metrics: MetricsService) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const stop = metrics.httpDuration.startTimer();
    response.once('finish', () => {
      stop({ method: request.method, route: routeTemplate(request), status_code: String(response.statusCode) });
    });
    next();
  };
}
