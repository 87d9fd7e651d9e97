import { maskApiKeys } from '../auth/api-keys/api-key-format';
import type { NextFunction, Request, Response } from 'express';
import type { Level, Logger } from 'pino';
import type { MetricsService } from '../../metrics/metrics.service';
import type { RequestWithId } from './request-context.middleware';
import { routeTemplate } from './route-table';

/** Probes and scrapes are counted, not logged: they would drown the access log. */
const QUIET_PATHS = /^\/(health|metrics)/;

/**
 * Observes every request once its response is done: the HTTP duration histogram by method, route
 * template and status (SPEC §11), and one access line — request id, method, path, route, status and
 * latency; `info`, `warn` from 400, `error` from 500 — built only when that level is enabled.
 */
export function observeRequests(metrics: MetricsService, logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const done = (): void => {
      response.off('finish', done);
      response.off('close', done);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeTemplate(request);
      const finished = response.writableFinished;
      if (finished) {
        metrics.httpDuration.observe(
          { method: request.method, route, status_code: String(response.statusCode) },
          seconds,
        );
      }
      const level = levelOf(response.statusCode);
      if (!logger.isLevelEnabled(level) || QUIET_PATHS.test(request.originalUrl)) return;
      logger[level](
        {
          req: {
            id: (request as RequestWithId).id,
            method: request.method,
            url: maskApiKeys(request.originalUrl.split('?')[0]),
          },
          res: { statusCode: response.statusCode },
          responseTime: Math.round(seconds * 1000),
          route,
        },
        !finished ? 'request aborted' : response.statusCode >= 500 ? 'request errored' : 'request completed',
      );
    };
    response.on('finish', done);
    response.on('close', done);
    next();
  };
}

function levelOf(status: number): Level {
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}
