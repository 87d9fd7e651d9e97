import express from 'express';
import type { Server } from 'node:http';
import { createHttpAdapter } from './http-server.adapter';

const TIMEOUTS = { headersTimeoutMs: 1000, requestTimeoutMs: 1500 };

describe('createHttpAdapter', () => {
  it('creates the HTTP server with the configured read deadlines and a 1 s expiry check', () => {
    const adapter = createHttpAdapter(TIMEOUTS);
    adapter.initHttpServer({});
    const server = adapter.getHttpServer() as Server & { connectionsCheckingInterval: number };
    expect(server).toMatchObject({ headersTimeout: 1000, requestTimeout: 1500, connectionsCheckingInterval: 1000 });
    expect(server.keepAliveTimeout).toBe(5000);
  });

  it('serves the express instance it is given, so settings made on it before routes are kept', () => {
    const app = express();
    app.set('strict routing', true);
    const adapter = createHttpAdapter(TIMEOUTS, app);
    expect(adapter.getInstance()).toBe(app);
    expect(adapter.getInstance<express.Express>().get('strict routing')).toBe(true);
  });

  it('routes exactly by default: case-sensitive and strict, set before any route exists', () => {
    const app = createHttpAdapter(TIMEOUTS).getInstance<express.Express>();
    expect(app.get('case sensitive routing')).toBe(true);
    expect(app.get('strict routing')).toBe(true);
  });

  it('refuses forceCloseConnections, which it would otherwise silently ignore', () => {
    expect(() => createHttpAdapter(TIMEOUTS).initHttpServer({ forceCloseConnections: true })).toThrow(
      /forceCloseConnections is not supported/,
    );
  });
});
