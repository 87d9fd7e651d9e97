import { Logger, Post, Req, Res, Type } from '@nestjs/common';
import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import {
  McpHttpControllerFor,
  McpStrategy,
  McpTransportSecurityOptions,
  StreamableHttpTransport,
} from '@rekog/mcp-nest';
import type { Request, Response } from 'express';
import { requestContextOf } from '../common/context/request-context';
import { HeaderAllowlists, JsonReplyTransport, plainJsonRequest } from './json-reply-transport';

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
 * 5. Server→client requests on the stateless 2025 leg (elicitation): the controller's POST is overridden
 *    (re-decorated `@Post()`) so a client's answer to such a request is handed to the call that waits for
 *    it, and the transport's `enableJsonResponse` (a plain field mcp-nest reads per request) becomes a
 *    per-request choice read from the request context, so only a call that may ask the client answers
 *    as an SSE stream.
 * 6. `McpStrategy.createBoundServer(session, rawRequest)`: a plain stateless POST answered as JSON (one
 *    JSON-RPC request of the 2025 leg that the SDK's transport would accept unchanged, see
 *    `plainJsonRequest`) is served by the same bound server through `JsonReplyTransport`, straight on the
 *    Node response; every other POST goes through mcp-nest's transport as before.
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

/** What this service decides per HTTP request on the 2025 leg (see extension point 5). */
export interface McpHttpHooks {
  /** Headers added to this POST's answer (e.g. a signed session id that carries the client's capabilities). */
  responseHeaders(request: Request): Record<string, string> | undefined;
  /** Whether this 2025-era POST is answered as an SSE stream, so the call can send the client a request. */
  streams(request: Request): boolean;
  /** Who is calling (an answer is only accepted from the account that was asked). */
  ownerOf(request: Request): string;
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
  clientRequests: ClientRequestBridge;
}

/** Builds the transport, the strategy and the (undecorated) controller class of one endpoint. */
export function createMcpEndpointParts(
  identity: McpServerIdentity,
  security: McpTransportSecurityOptions | undefined,
): McpEndpointParts {
  const clientRequests = new ClientRequestBridge();
  const transport = new StreamableHttpTransport({ statefulMode: false, enableJsonResponse: true, security });
  clientRequests.governJsonResponses(transport);
  const strategy = new CatalogMcpStrategy({
    ...identity,
    transports: [transport],
    // The lists change only with the access policy, which a client re-reads per request: no listChanged.
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      completions: {},
      // Long tool calls as tasks: the 2025-11-25 capability and the 2026-07-28 extension.
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      extensions: { [TASKS_EXTENSION]: {} },
    },
    logging: { level: ['error', 'warn'] },
  });
  const allowlists: HeaderAllowlists = {
    allowedHosts: resolveAllowlist(security?.allowedHosts, localhostAllowedHostnames),
    allowedOrigins: resolveAllowlist(security?.allowedOrigins, localhostAllowedOrigins),
  };
  class McpEndpointController extends McpHttpControllerFor(transport) {
    @Post()
    override post(@Req() request: Request, @Res() response: Response): Promise<void> | void {
      if (clientRequests.deliver(request, response)) return;
      return clientRequests.serve(
        request,
        response,
        () => servePlainJson(strategy, allowlists, request, response) ?? super.post(request, response),
      );
    }
  }
  return { transport, strategy, controller: McpEndpointController, clientRequests };
}

/** mcp-nest's reading of an allowlist option: `localhost` is the SDK's localhost names. */
function resolveAllowlist(option: string[] | 'localhost' | undefined, localhost: () => string[]): string[] | undefined {
  return option === 'localhost' ? localhost() : option;
}

const plainJsonLogger = new Logger('McpEndpoint');

/**
 * Extension point 6: serves `request` through `JsonReplyTransport` when it is a plain stateless POST
 * answered as JSON, else returns undefined for mcp-nest's transport to serve it.
 */
function servePlainJson(
  strategy: CatalogMcpStrategy,
  allowlists: HeaderAllowlists,
  request: Request,
  response: Response,
): Promise<void> | undefined {
  if (requestContextOf(request)?.answersAsStream === true) return undefined;
  const message = plainJsonRequest(request, request.body, allowlists);
  return message && answerPlainJson(strategy, new JsonReplyTransport(message, response), request, response);
}

async function answerPlainJson(
  strategy: CatalogMcpStrategy,
  transport: JsonReplyTransport,
  request: Request,
  response: Response,
): Promise<void> {
  try {
    const server = strategy.createBoundServer(
      { transport: 'streamable-http', stateless: true, era: 'legacy' },
      request,
    );
    await server.connect(transport);
    transport.deliver((request as { auth?: unknown }).auth);
  } catch (error) {
    // As mcp-nest's transport answers a request it failed to serve.
    plainJsonLogger.error('Error handling MCP request', error instanceof Error ? error.stack : String(error));
    if (!response.headersSent)
      response
        .status(500)
        .json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
  }
}

/** The tasks extension's identifier (2026-07-28); advertised in the server's capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Requests waiting for a client's answer at once; past it a new one is refused instead of sent. */
const MAX_PENDING_CLIENT_REQUESTS = 1000;

interface PendingClientRequest {
  owner: string;
  settle(answer: { result?: unknown; error?: unknown }): void;
}

/**
 * Requests this server sends a client in the middle of a 2025-era call (elicitation/create). The client
 * POSTs its answer as a new stateless request, which any transport would drop: it is matched here, by an
 * id this bridge minted and the account that was asked, to the call that waits for it. An answer reaches
 * the replica that asked only when requests are routed by `Mcp-Session-Id` (or there is one replica).
 */
export class ClientRequestBridge {
  private readonly pending = new Map<string, PendingClientRequest>();
  private hooks?: McpHttpHooks;

  /** Set once at start-up by the provider that decides per request. */
  use(hooks: McpHttpHooks): void {
    this.hooks = hooks;
  }

  /**
   * mcp-nest reads `enableJsonResponse` once per 2025-era request, first thing in `handleStateless`: the
   * answer is chosen per request there (from the request's context, which `serve` marked), with nothing in
   * between that could interleave another request.
   */
  governJsonResponses(transport: StreamableHttpTransport): void {
    const patched = transport as unknown as {
      enableJsonResponse?: unknown;
      handleStateless?: (request: { raw: Request }, ...rest: unknown[]) => Promise<void>;
    };
    const handleStateless = patched.handleStateless;
    if (typeof patched.enableJsonResponse !== 'boolean' || typeof handleStateless !== 'function') {
      throw new Error('@rekog/mcp-nest no longer has StreamableHttpTransport.enableJsonResponse and handleStateless');
    }
    let streams = false;
    Object.defineProperty(transport, 'enableJsonResponse', { get: () => !streams });
    patched.handleStateless = function (this: unknown, request, ...rest) {
      streams = requestContextOf(request.raw)?.answersAsStream === true;
      try {
        return handleStateless.call(this, request, ...rest);
      } finally {
        streams = false;
      }
    };
  }

  /**
   * Serves one POST: its extra headers set, as an SSE stream when the hooks say the call may ask the client.
   * The choice rides the request's context (given by the service's request middleware to every request):
   * a request without one is answered as JSON.
   */
  serve(request: Request, response: Response, next: () => Promise<void> | void): Promise<void> | void {
    const headers = this.hooks?.responseHeaders(request);
    if (headers) for (const name in headers) response.setHeader(name, headers[name]);
    const context = requestContextOf(request);
    if (context) context.answersAsStream = this.hooks?.streams(request) === true;
    return next();
  }

  /** A client's answer to a request of ours: settles the waiting call and answers 202; false for anything else. */
  deliver(request: Request, response: Response): boolean {
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || 'method' in body || typeof body.id !== 'string') return false;
    const pending = this.pending.get(body.id);
    if (!pending || pending.owner !== this.hooks?.ownerOf(request)) return false;
    this.pending.delete(body.id);
    pending.settle({ result: body.result, error: body.error });
    response.status(202).end();
    return true;
  }

  /**
   * Sends `method` to the client over the SSE answer of the call `relatedRequestId` and waits for its
   * answer (rejects on a JSON-RPC error, on `signal` or after `timeoutMs`).
   */
  ask(
    handlers: McpRequestHandlers,
    relatedRequestId: string | number,
    owner: string,
    message: { method: string; params: Record<string, unknown> },
    timeoutMs: number,
  ): Promise<unknown> {
    const transport = handlers.transport;
    if (!transport) return Promise.reject(new Error('the call has no transport to ask the client through'));
    if (this.pending.size >= MAX_PENDING_CLIENT_REQUESTS) {
      return Promise.reject(new Error('too many requests are waiting for client answers'));
    }
    const id = `agent-retrieval-${randomUUID()}`;
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the client did not answer ${message.method} in time`));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, {
        owner,
        settle: ({ result, error }) => {
          clearTimeout(timer);
          if (error !== undefined) reject(new Error(`the client answered ${message.method} with an error`));
          else resolve(result);
        },
      });
      transport.send({ jsonrpc: '2.0', id, ...message }, { relatedRequestId }).catch((error: unknown) => {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }
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
