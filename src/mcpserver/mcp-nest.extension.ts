import { Type } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/server';
import {
  McpHttpControllerFor,
  McpStrategy,
  McpTransportSecurityOptions,
  StreamableHttpTransport,
} from '@rekog/mcp-nest';
import type { Request } from 'express';

/**
 * Every place this service extends @rekog/mcp-nest, in one file (STYLE: extending a library). Each is a
 * public extension point, and `mcp-nest.extension.spec.ts` fails when an upgrade changes what it relies on:
 *
 * 1. `StreamableHttpTransport` (stateless, JSON responses) and `McpHttpControllerFor(transport)`: the
 *    endpoint is a real Nest controller, so the global guards (auth, rate limit, body and host checks)
 *    run before the transport sees a request.
 * 2. `McpStrategy.bindRequestHandlers(server, session, rawRequest)`: called by the transport for every
 *    server it builds (one per stateless request, both protocol eras). The override installs this
 *    service's own handlers on the SDK server through its public `setRequestHandler`; mcp-nest's
 *    decorator registry and its RPC pipeline are not used, so a request costs the same whatever the
 *    size of the catalog.
 * 3. `McpStrategy` options: the capabilities are declared here, since no decorated handler exists for
 *    mcp-nest to derive them from.
 * 4. The SDK server takes `instructions` only in its constructor, which mcp-nest calls with the strategy's
 *    options before the request is known; initialize and server/discover read the server's `_instructions`
 *    when they answer, so it is set per request in `bindRequestHandlers` (both eras pass through it).
 */

/** The SDK server one request is served by, where request handlers are installed. */
export type McpRequestHandlers = McpServer['server'];

/** What one MCP request came with: the HTTP request the guards accepted and the protocol era. */
export interface McpConnection {
  request?: Request;
  era: 'legacy' | 'modern';
}

/** This service's handlers for tools, resources, prompts and completions, installed on every server. */
export interface McpServerHandlers {
  install(handlers: McpRequestHandlers, connection: McpConnection): void;
  /** The `instructions` initialize and server/discover answer for this request (its caller's language). */
  instructions?(connection: McpConnection): string;
}

export interface McpServerIdentity {
  name: string;
  version: string;
  instructions: string;
}

/** One MCP endpoint: the transport, the strategy that serves it and the HTTP controller owning the route. */
export interface McpEndpointParts {
  transport: StreamableHttpTransport;
  strategy: CatalogMcpStrategy;
  controller: Type<unknown>;
}

/** Builds the transport, the strategy and the (undecorated) controller class of one endpoint. */
export function createMcpEndpointParts(
  identity: McpServerIdentity,
  security: McpTransportSecurityOptions | undefined,
): McpEndpointParts {
  const transport = new StreamableHttpTransport({ statefulMode: false, enableJsonResponse: true, security });
  const strategy = new CatalogMcpStrategy({
    ...identity,
    transports: [transport],
    // The lists change only with the access policy, which a client re-reads per request: no listChanged.
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    },
    logging: { level: ['error', 'warn'] },
  });
  class McpEndpointController extends McpHttpControllerFor(transport) {}
  return { transport, strategy, controller: McpEndpointController };
}

/** mcp-nest's strategy, serving this service's handlers instead of its decorator registry. */
export class CatalogMcpStrategy extends McpStrategy {
  private handlers?: McpServerHandlers;

  /** Set once at start-up by the provider that owns the handlers, before the first request. */
  serve(handlers: McpServerHandlers): void {
    this.handlers = handlers;
  }

  override bindRequestHandlers(...[server, session, rawRequest]: Parameters<McpStrategy['bindRequestHandlers']>): void {
    if (!this.handlers) throw new Error('the MCP endpoint has no handlers yet');
    const connection: McpConnection = { request: rawRequest as Request | undefined, era: session.era ?? 'legacy' };
    this.handlers.install(server.server, connection);
    const instructions = this.handlers.instructions?.(connection);
    if (instructions) (server.server as unknown as { _instructions?: string })._instructions = instructions;
  }
}
