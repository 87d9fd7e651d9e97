import { Controller, Type, UseFilters } from '@nestjs/common';
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
import { Access } from '../common/http/route-access';
import { CheckBodyWith } from '../common/http/request-body';
import { AppConfig, isLoopbackHost } from '../config';
import { checkJsonRpcBody, JsonRpcRejectionFilter } from './json-rpc-body';
import { projectRoot } from '../project-root';
import { MCP_ROUTES } from './mcp-paths';

export const MCP_SERVER_NAME = 'agent-retrieval';

const INSTRUCTIONS =
  'Governed access to one business knowledge network (kn_id from the X-Kn-ID header or the kn_id argument). ' +
  'Start with kn_schema_search or kn_search to find object/relation/action types, then query_object_instance or ' +
  'query_instance_subgraph for instances, resolve_logic_properties for computed metrics, and get_action_info ' +
  'for the actions that can be executed on an instance.';

/** One MCP endpoint: its transport, the strategy serving it, and the HTTP controller that owns the route. */
export interface McpEndpoint {
  transport: StreamableHttpTransport;
  strategy: McpStrategy;
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
  const strategy = new McpStrategy({
    name: MCP_SERVER_NAME,
    version: packageVersion(),
    instructions: INSTRUCTIONS,
    transports: [transport],
    logging: { level: ['error', 'warn'] },
  });
  // The route is a real Nest route, so the global AuthGuard (401 + challenge), throttling, the body
  // check and the host check run before the transport sees the request.
  class McpEndpointController extends McpHttpControllerFor(transport) {}
  Controller(MCP_ROUTES)(McpEndpointController);
  Access('public')(McpEndpointController);
  ChallengeWithResourceMetadata()(McpEndpointController);
  CheckBodyWith(checkJsonRpcBody)(McpEndpointController);
  UseFilters(new JsonRpcRejectionFilter())(McpEndpointController);
  ApiExcludeController()(McpEndpointController);
  return { transport, strategy, controller: McpEndpointController };
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
