import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { configToken, ServerConfig } from '../config';
import { currentRequestContext } from '../common/context/request-context';
import { currentTraceIds } from '../tracing/trace-ids';

/** The process's pino logger: Nest's logger writes through it, and so does the access log. */
export const ROOT_LOGGER = 'agentRetrieval:rootLogger';

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

/**
 * JSON lines (pretty when LOG_PRETTY=true). A line written while a request is served names its request
 * id (`req.id`) where the request context travels ambiently (see readsAmbientRequestContext), and the
 * active span's `trace_id`/`span_id` when tracing is on. Both come from the async context when the line
 * is written, so a request that logs nothing pays nothing for them.
 */
export function createRootLogger(
  server: Pick<ServerConfig, 'logLevel' | 'logPretty'>,
  destination?: DestinationStream,
): Logger {
  const options: LoggerOptions = {
    level: server.logLevel,
    transport: server.logPretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: () => {
      const requestId = currentRequestContext()?.requestId;
      const traceIds = currentTraceIds();
      if (requestId === undefined) return traceIds ?? {};
      return { req: { id: requestId }, ...traceIds };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

@Module({
  providers: [
    {
      provide: ROOT_LOGGER,
      inject: [configToken('server')],
      useFactory: (server: ServerConfig) => createRootLogger(server),
    },
  ],
  exports: [ROOT_LOGGER],
})
class RootLoggerModule {}

/**
 * Nest's logger (nestjs-pino) over the root logger. nestjs-pino's request middleware (pino-http: a child
 * logger per request, its request serialised and redacted every time) is bound to no route: the access
 * line comes from `observeRequests`, and the request id reaches every line through the mixin above.
 */
@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      inject: [ROOT_LOGGER],
      useFactory: (logger: Logger) => ({ pinoHttp: { logger }, forRoutes: [] }),
    }),
  ],
  exports: [RootLoggerModule],
})
export class LoggingModule {}
