import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { Logger as PinoLogger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { rejectForeignHosts } from './common/auth/host-check.middleware';
import { ErrorPresenter } from './common/errors/error-presenter';
import { ErrorShapes } from './common/errors/error-shapes';
import { HttpExceptionFilter } from './common/errors/http-exception.filter';
import { answerClientErrors } from './common/http/client-error';
import { ConnectionDrain } from './common/http/connection-drain';
import { rejectOversizedBodies } from './common/http/content-length-limit.middleware';
import { createHttpAdapter } from './common/http/http-server.adapter';
import { deferBodyParseErrors, parsedUnlessRefused } from './common/http/request-body';
import { requestContextMiddleware } from './common/http/request-context.middleware';
import { observeRequests } from './common/http/request-observer.middleware';
import { rejectMalformedRequests } from './common/http/malformed-request.middleware';
import { AppConfig, isLoopbackHost } from './config';
import { HealthRegistry } from './health/health-registry';
import { ROOT_LOGGER } from './logging/logging.module';
import { startMcpServer } from './mcpserver/mcp-bootstrap';
import { MetricsService } from './metrics/metrics.service';
import { setupOpenApi } from './openapi';

/** Builds the fully configured application without listening; tests and main.ts share it. */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  const adapter = createHttpAdapter(config.server);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), adapter, {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoLogger));
  app.disable('x-powered-by');
  // Answers are live data that no client revalidates: hashing every body for an ETag is pure cost.
  app.set('etag', false);
  app.set('trust proxy', config.server.trustProxy);
  app.use(requestContextMiddleware(config.i18n.defaultLanguage));
  app.use(rejectMalformedRequests);
  app.use(observeRequests(app.get(MetricsService), app.get(ROOT_LOGGER)));
  if (config.auth.mode === 'none' && isLoopbackHost(config.server.host)) {
    app.use(rejectForeignHosts());
  }
  app.use(rejectOversizedBodies(config.server.bodyLimitBytes));
  app.useBodyParser('json', { limit: config.server.bodyLimit, type: parsedUnlessRefused('application/json') });
  app.useBodyParser('urlencoded', {
    limit: config.server.bodyLimit,
    extended: true,
    type: parsedUnlessRefused('application/x-www-form-urlencoded'),
  });
  app.use(deferBodyParseErrors);
  const presenter = app.get(ErrorPresenter);
  answerClientErrors(app.getHttpServer() as Server, presenter, config.i18n.defaultLanguage);
  app.useGlobalFilters(
    new HttpExceptionFilter(presenter, app.get(ErrorShapes), app.get(HttpAdapterHost), config.i18n.defaultLanguage),
  );
  setupOpenApi(app);
  await startMcpServer(app, config);
  return app;
}

export interface RunningApp {
  app: NestExpressApplication;
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), then closes resources. */
  shutdown(reason?: string): Promise<{ forced: boolean }>;
}

/** Creates the app, listens on HOST:PORT and wires graceful shutdown. */
export async function startApp(config: AppConfig): Promise<RunningApp> {
  const app = await createApp(config);
  const drain = new ConnectionDrain(app.getHttpServer() as Server);
  try {
    await app.listen(config.server.port, config.server.host);
  } catch (error) {
    // A start-up that fails (e.g. KN_STRICT) still releases what init started: worker threads, timers.
    await app.close().catch(() => undefined);
    throw error;
  }
  const server = app.getHttpServer() as Server;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.server.port;
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  let closing: Promise<{ forced: boolean }> | undefined;
  const shutdown = (reason = 'shutdown'): Promise<{ forced: boolean }> => {
    closing ??= drainAndClose(app, drain, config.server.shutdownGraceMs, reason);
    return closing;
  };
  return { app, server, url: `http://${host}:${port}`, shutdown };
}

async function drainAndClose(
  app: NestExpressApplication,
  drain: ConnectionDrain,
  graceMs: number,
  reason: string,
): Promise<{ forced: boolean }> {
  const logger = app.get(PinoLogger);
  logger.log(`${reason}: draining in-flight requests (grace ${graceMs} ms)`, 'Shutdown');
  app.get(HealthRegistry).markShuttingDown();
  const { forced } = await drain.drain(graceMs);
  if (forced) logger.warn('grace period ended; remaining connections were closed', 'Shutdown');
  await app.close();
  return { forced };
}
