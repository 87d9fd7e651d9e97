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
import { createHttpAdapter, HttpServerAdapter } from './common/http/http-server.adapter';
import { hidePrivatePrefix, tagRequests } from './common/http/listeners';
import { deferBodyParseErrors, parsedUnlessRefused } from './common/http/request-body';
import { declareAmbientRequestContext } from './common/context/request-context';
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
  declareAmbientRequestContext(readsAmbientRequestContext(config));
  app.use(requestContextMiddleware(config.i18n.defaultLanguage));
  app.use(rejectMalformedRequests);
  app.use(observeRequests(app.get(MetricsService), app.get(ROOT_LOGGER)));
  if (config.auth.mode === 'none' && isLoopbackHost(config.server.host)) {
    app.use(rejectForeignHosts());
  }
  if (config.server.privateListener) app.use(hidePrivatePrefix());
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
  setupOpenApi(app, config.server.privateListener !== undefined);
  await startMcpServer(app, config);
  return app;
}

/**
 * Whether a configured part needs the request context below the request's reach (see request-context):
 * a KWeaver or WeKnora upstream (the caller's identity, token and request id go with each call), or the
 * request id on every log line (debug logging, tracing). Without it the access and audit lines still name
 * the request, and the search pool admits each task on its own (see WorkerPool.submit).
 */
export function readsAmbientRequestContext(config: AppConfig): boolean {
  return (
    config.kn.backend === 'kweaver' ||
    config.operators.backend === 'kweaver' ||
    config.kb.backend === 'weknora' ||
    config.tracing.enabled ||
    config.server.logLevel === 'debug' ||
    config.server.logLevel === 'trace'
  );
}

export interface RunningApp {
  app: NestExpressApplication;
  server: Server;
  url: string;
  /** The private prefix's own listener, when PRIVATE_PORT is set. */
  privateServer?: Server;
  /** Where the private prefix is served: the private listener's URL, or `url` when it shares the public one. */
  privateUrl: string;
  /** Stops accepting on every listener, lets in-flight requests finish (up to the grace period), then closes resources. */
  shutdown(reason?: string): Promise<{ forced: boolean }>;
}

/** Creates the app, listens on HOST:PORT (and PRIVATE_HOST:PRIVATE_PORT) and wires graceful shutdown. */
export async function startApp(config: AppConfig): Promise<RunningApp> {
  const app = await createApp(config);
  const server = app.getHttpServer() as Server;
  const { privateListener } = config.server;
  const privateServer = privateListener ? createPrivateServer(app, config) : undefined;
  const drains = [server, privateServer].filter((each) => each !== undefined).map((each) => new ConnectionDrain(each));
  try {
    await app.listen(config.server.port, config.server.host);
    if (privateServer && privateListener) await listen(privateServer, privateListener.port, privateListener.host);
  } catch (error) {
    // A start-up that fails (e.g. KN_STRICT) still releases what init started: worker threads, timers.
    privateServer?.close();
    await app.close().catch(() => undefined);
    throw error;
  }
  warnIfPrivateOnPublicPort(app, config);
  const url = listenerUrl(server, config.server.host);
  let closing: Promise<{ forced: boolean }> | undefined;
  const shutdown = (reason = 'shutdown'): Promise<{ forced: boolean }> => {
    closing ??= drainAndClose(app, drains, config.server.shutdownGraceMs, reason);
    return closing;
  };
  const privateUrl = privateServer && privateListener ? listenerUrl(privateServer, privateListener.host) : url;
  return { app, server, url, privateServer, privateUrl, shutdown };
}

/** A second HTTP server for the same Express app (one set of providers), its requests tagged private. */
function createPrivateServer(app: NestExpressApplication, config: AppConfig): Server {
  const adapter = app.getHttpAdapter();
  if (!(adapter instanceof HttpServerAdapter)) throw new Error('the private listener needs the HttpServerAdapter');
  const server = adapter.createSiblingServer();
  tagRequests(server, 'private');
  answerClientErrors(server, app.get(ErrorPresenter), config.i18n.defaultLanguage);
  return server;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function listenerUrl(server: Server, configuredHost: string): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const host = configuredHost.includes(':') ? `[${configuredHost}]` : configuredHost;
  return `http://${host}:${port}`;
}

/** The operator chose this (PRIVATE_ON_PUBLIC_PORT=true); the log says what it costs on every start. */
function warnIfPrivateOnPublicPort(app: NestExpressApplication, config: AppConfig): void {
  const { server, auth } = config;
  if (!server.privateOnPublicPort || server.privateListener) return;
  app
    .get(PinoLogger)
    .warn(
      `PRIVATE_ON_PUBLIC_PORT=true: the private prefix /api/agent-retrieval/in/v1 trusts x-account-id and is served ` +
        `on the public port ${server.host}:${server.port} (AUTH_MODE=${auth.mode}); anyone who reaches this port can ` +
        'call execute_action, the proxies and whoami as any account. Set PRIVATE_PORT and admit only the platform to it.',
      'Bootstrap',
    );
}

async function drainAndClose(
  app: NestExpressApplication,
  drains: ConnectionDrain[],
  graceMs: number,
  reason: string,
): Promise<{ forced: boolean }> {
  const logger = app.get(PinoLogger);
  logger.log(`${reason}: draining in-flight requests (grace ${graceMs} ms)`, 'Shutdown');
  app.get(HealthRegistry).markShuttingDown();
  const results = await Promise.all(drains.map((drain) => drain.drain(graceMs)));
  const forced = results.some((result) => result.forced);
  if (forced) logger.warn('grace period ended; remaining connections were closed', 'Shutdown');
  await app.close();
  return { forced };
}
