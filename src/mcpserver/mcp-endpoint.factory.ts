import { Controller, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  McpHttpControllerFor,
  McpStrategy,
  McpTransportSecurityOptions,
  StreamableHttpTransport,
} from '@rekog/mcp-nest';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ChallengeWithResourceMetadata } from '../common/auth/auth.guard';
import { ErrorShape } from '../common/errors/error-shape';
import { Access } from '../common/http/route-access';
import { CheckBodyWith } from '../common/http/request-body';
import { AppConfig, isLoopbackHost } from '../config';
import { checkJsonRpcBody } from './json-rpc-body';
import { JSON_RPC_ERROR_SHAPE } from './json-rpc-error-shape';
import { projectRoot } from '../project-root';
import { MCP_ROUTES } from './mcp-paths';
import type { Request } from 'express';
import { connectionScope } from './connection-scope';
import type { NetworkCatalog } from './network-catalog';

export const MCP_SERVER_NAME = 'agent-retrieval';

const INSTRUCTIONS =
  'Governed access to business knowledge networks (kn_id from the X-Kn-ID header or the kn_id argument; ' +
  'list_knowledge_networks and get_kn_detail find one). Start with search_schema (or kn_search) to find ' +
  'object/relation/action/metric types, then query_object_instance or query_instance_subgraph for instances, ' +
  'resolve_logic_properties for computed values, find_skills for the skills bound to an instance, get_action_info ' +
  'for the actions that can be executed on an instance, and execute_action to run one once the user agreed.';

/** One MCP endpoint: its transport, the strategy serving it, and the HTTP controller that owns the route. */
export interface McpEndpoint {
  transport: StreamableHttpTransport;
  strategy: AgentRetrievalMcpStrategy;
  controller: Type<unknown>;
}

/**
 * Built per application (not at import time) so every app instance — several per test process — gets
 * its own transport, strategy and controller class, and the DNS-rebinding allowlist can follow config.
 */
export function createMcpEndpoint(config: AppConfig): McpEndpoint {
  const transport = new StreamableHttpTransport({
    statefulMode: false,
    enableJsonResponse: true,
    security: transportSecurity(config),
  });
  const strategy = new AgentRetrievalMcpStrategy(securitySchemesFor(config), {
    name: MCP_SERVER_NAME,
    version: packageVersion(),
    instructions: INSTRUCTIONS,
    transports: [transport],
    // The lists never change while the service runs: no listChanged (mcp-nest would announce it).
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false },
      prompts: { listChanged: false },
      completions: {},
    },
    logging: { level: ['error', 'warn'] },
  });
  // The route is a real Nest route, so the global AuthGuard (401 + challenge), throttling, the body
  // check and the host check run before the transport sees the request.
  class McpEndpointController extends McpHttpControllerFor(transport) {}
  Controller(MCP_ROUTES)(McpEndpointController);
  Access('public')(McpEndpointController);
  ChallengeWithResourceMetadata()(McpEndpointController);
  CheckBodyWith(checkJsonRpcBody)(McpEndpointController);
  ErrorShape(JSON_RPC_ERROR_SHAPE)(McpEndpointController);
  ApiExcludeController()(McpEndpointController);
  return { transport, strategy, controller: McpEndpointController };
}

type SecurityScheme = Record<string, unknown>;

/** What the endpoint really requires of a caller, in `_meta.securitySchemes` terms. */
export function securitySchemesFor(config: AppConfig): SecurityScheme[] {
  if (config.auth.mode === 'none') return [{ type: 'noauth' }];
  if (config.auth.mode === 'introspect') return [{ type: 'oauth2' }];
  return [{ type: 'http', scheme: 'bearer' }];
}

type Handler = (request: { params?: Record<string, unknown> }, ...rest: unknown[]) => Promise<unknown>;
type ToolsList = { tools: Record<string, unknown>[] };
type HandlerRegistry = { setRequestHandler(method: string, handler: Handler): void };

interface CompleteParams {
  ref?: { type?: string; name?: string; uri?: string };
  argument?: { name?: string; value?: string };
  context?: { arguments?: Record<string, string> };
}

/**
 * mcp-nest with two corrections to `tools/list`, made where every server it builds (both protocol
 * eras) gets its handlers: each tool's `title` at the top level (mcp-nest only sets it inside the
 * annotations), and `_meta.securitySchemes` saying what this endpoint really requires — mcp-nest
 * writes `noauth` because the guard that protects the route is a Nest guard it cannot see.
 */
export class AgentRetrievalMcpStrategy extends McpStrategy {
  private catalog?: NetworkCatalog;

  constructor(
    private readonly securitySchemes: SecurityScheme[],
    options: ConstructorParameters<typeof McpStrategy>[0],
  ) {
    super(options);
  }

  override bindRequestHandlers(...args: Parameters<McpStrategy['bindRequestHandlers']>): void {
    const registry = (args[0] as unknown as { server: HandlerRegistry }).server;
    const register = registry.setRequestHandler.bind(registry);
    registry.setRequestHandler = (method, handler) =>
      register(
        method,
        method === 'tools/list'
          ? this.correctedToolsList(handler)
          : method === 'resources/read'
            ? this.checkedResourceRead(handler, args[2] as Request | undefined)
            : handler,
      );
    try {
      super.bindRequestHandlers(...args);
    } finally {
      delete (registry as Partial<HandlerRegistry>).setRequestHandler;
    }
    if (this.catalog) this.bindCatalog(registry, this.catalog, args[2] as Request | undefined);
  }

  /** `resources/read` refuses what the connection may not read before mcp-nest's pipeline runs. */
  private checkedResourceRead(handler: Handler, rawRequest: Request | undefined): Handler {
    return async (request, ...rest) => {
      const uri = request.params?.uri;
      if (this.catalog && typeof uri === 'string') await this.catalog.assertReadable(uri, connectionScope(rawRequest));
      return handler(request, ...rest);
    };
  }

  /** The served networks as resources and completion values (set once the app's providers exist). */
  useCatalog(catalog: NetworkCatalog): void {
    this.catalog = catalog;
  }

  /**
   * `resources/list` lists the networks this connection may see (mcp-nest only lists static resources),
   * and `completion/complete` offers kn_id, ot_id, rt_id and at_id values.
   */
  private bindCatalog(registry: HandlerRegistry, catalog: NetworkCatalog, rawRequest: Request | undefined): void {
    const scope = connectionScope(rawRequest);
    registry.setRequestHandler('resources/list', async () => ({ resources: await catalog.list(scope) }));
    registry.setRequestHandler('completion/complete', async (request: { params?: Record<string, unknown> }) => {
      const params = (request.params ?? {}) as CompleteParams;
      const argument = params.argument?.name ?? '';
      const knId = params.context?.arguments?.kn_id ?? knIdOfUri(params.ref?.uri) ?? scope;
      return { completion: await catalog.complete(argument, String(params.argument?.value ?? ''), knId) };
    });
  }

  private correctedToolsList(handler: Handler): Handler {
    return async (...args) => {
      const listed = (await handler(...args)) as ToolsList;
      const tools = listed.tools.map((tool) => {
        const annotations = tool.annotations as { title?: string } | undefined;
        const meta = { ...(tool._meta as Record<string, unknown> | undefined), securitySchemes: this.securitySchemes };
        return { ...tool, ...(annotations?.title ? { title: annotations.title } : {}), _meta: meta };
      });
      return { ...listed, tools };
    };
  }
}

/** The kn_id of a `kn://{kn_id}/…` URI, when it is already filled in. */
function knIdOfUri(uri: string | undefined): string | undefined {
  const match = /^kn:\/\/([^/{}]+)/.exec(uri ?? '');
  return match?.[1];
}

/**
 * Explicit MCP_ALLOWED_HOSTS/ORIGINS win; unauthenticated loopback serving pins both to localhost
 * names (the bootstrap host check already answers 403 first — this keeps the endpoint safe on its own).
 */
export function transportSecurity(config: AppConfig): McpTransportSecurityOptions | undefined {
  const { allowedHosts, allowedOrigins } = config.mcp;
  const localOnly = config.auth.mode === 'none' && isLoopbackHost(config.server.host);
  if (!allowedHosts && !allowedOrigins && !localOnly) return undefined;
  return {
    allowedHosts: allowedHosts ?? (localOnly ? 'localhost' : undefined),
    allowedOrigins: allowedOrigins ?? (localOnly ? 'localhost' : undefined),
  };
}

let cachedVersion: string | undefined;

function packageVersion(): string {
  if (cachedVersion) return cachedVersion;
  try {
    const manifest = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version?: string };
    cachedVersion = manifest.version ?? '0.0.0';
  } catch {
    cachedVersion = '0.0.0';
  }
  return cachedVersion;
}
