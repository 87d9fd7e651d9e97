import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import express, { type Express, type Response } from 'express';
import * as http from 'node:http';
import * as https from 'node:https';
import type { ServerConfig } from '../../config';
import { encodeAnswer } from '../response-format/response-format';
import { PrefilterRouter, prefilterRouteMatching } from './route-prefilter';

// How often Node looks for expired requests; its 30 s default lets a stalled body outlive REQUEST_TIMEOUT_MS.
const CONNECTIONS_CHECKING_INTERVAL_MS = 1000;

type ServerTimeouts = Required<
  Pick<http.ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'>
>;

/**
 * Nest's Express adapter, except that the HTTP server is created with read deadlines (a client that
 * does not finish its headers within `headersTimeout`, or its whole request within `requestTimeout`,
 * gets 408 and loses the connection) and that a handler's answer is written in the `response_format`
 * the request asked for, and that route matching skips the routes whose literal text the path does not
 * start with (see prefilterRouteMatching). Everything else is ExpressAdapter's own behaviour.
 */
export class HttpServerAdapter extends ExpressAdapter {
  constructor(
    private readonly timeouts: ServerTimeouts,
    instance?: Express,
  ) {
    super(instance);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options.forceCloseConnections) {
      // ExpressAdapter tracks those sockets in private state; ConnectionDrain force-closes at the deadline.
      throw new Error('forceCloseConnections is not supported by HttpServerAdapter; use SHUTDOWN_GRACE_MS');
    }
    const server = options.httpsOptions
      ? https.createServer({ ...options.httpsOptions, ...this.timeouts }, this.getInstance<Express>())
      : this.createSiblingServer();
    this.setHttpServer(server);
  }

  /** One more HTTP server for the same Express app and providers, with the same read deadlines. */
  createSiblingServer(): http.Server {
    return http.createServer(this.timeouts, this.getInstance<Express>());
  }

  /** Nest's last step of registering routes: every route exists now, so their matching can be prefiltered. */
  override setErrorHandler(handler: Parameters<ExpressAdapter['setErrorHandler']>[0], prefix?: string): unknown {
    const registered = super.setErrorHandler(handler, prefix);
    prefilterRouteMatching((this.getInstance<Express>() as unknown as { router: PrefilterRouter }).router);
    return registered;
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    return super.reply(response, encodeAnswer(response, body), statusCode);
  }
}

/**
 * Express matches routes case-insensitively and ignores a trailing slash by default, so `/API/…` reached
 * handlers that string tests elsewhere did not recognise. Exact matching is set before any route exists
 * (Express reads these settings when it creates its router).
 */
function exactRoutingExpress(): Express {
  const instance = express();
  instance.set('case sensitive routing', true);
  instance.set('strict routing', true);
  return instance;
}

/** The adapter for NestFactory.create: exact routing and read deadlines (or settings of a given `expressApp`). */
export function createHttpAdapter(
  server: Pick<ServerConfig, 'headersTimeoutMs' | 'requestTimeoutMs'>,
  expressApp: Express = exactRoutingExpress(),
): HttpServerAdapter {
  const timeouts: ServerTimeouts = {
    headersTimeout: server.headersTimeoutMs,
    requestTimeout: server.requestTimeoutMs,
    connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
  };
  return new HttpServerAdapter(timeouts, expressApp);
}
