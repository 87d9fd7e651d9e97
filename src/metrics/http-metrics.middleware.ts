import type { NextFunction, Request, Response } from 'express';
import { routeTemplate } from '../common/http/route-table';
import { MetricsService } from './metrics.service';

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
