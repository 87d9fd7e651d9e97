import { Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { configToken, ServerConfig } from '../config';
import { routeTemplate } from '../common/http/route-table';
import { currentTraceIds } from '../tracing/trace-ids';

type RequestWithId = IncomingMessage & { id?: string; path?: string; originalUrl?: string };

/** Paths redacted wherever they appear: credentials never reach the log. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-authorization"]',
  'req.headers.cookie',
  'req.headers["x-weknora-api-key"]',
  'res.headers["set-cookie"]',
  '*.token',
  '*.apiKey',
  '*.api_key',
  '*.password',
];

/** JSON logs with request id, method, route template, status and latency; pretty when LOG_PRETTY=true. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [configToken('server')],
      useFactory: (server: ServerConfig) => ({
        pinoHttp: {
          level: server.logLevel,
          transport: server.logPretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
          genReqId: (request: IncomingMessage) => String((request as RequestWithId).id ?? ''),
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          // trace_id and span_id on every line written while a span is active (never, with tracing off).
          mixin: () => currentTraceIds() ?? {},
          // The route template is known only once routing ran, so it joins the completion line
          // (customProps would be evaluated at the start too and log the key twice).
          customSuccessObject: (request: IncomingMessage, _response: ServerResponse, value: object) => ({
            ...value,
            route: routeTemplate(request),
          }),
          customErrorObject: (request: IncomingMessage, _response: ServerResponse, _error: Error, value: object) => ({
            ...value,
            route: routeTemplate(request),
          }),
          serializers: {
            req: (request: { id?: string; method?: string; url?: string }) => ({
              id: request.id,
              method: request.method,
              url: request.url?.split('?')[0],
            }),
            res: (response: ServerResponse) => ({ statusCode: response.statusCode }),
          },
          customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
            error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
          autoLogging: {
            ignore: (request: IncomingMessage) => /^\/(health|metrics)/.test(request.url ?? ''),
          },
        },
      }),
    }),
  ],
})
export class LoggingModule {}
