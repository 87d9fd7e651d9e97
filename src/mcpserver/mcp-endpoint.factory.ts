import { Controller, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { McpTransportSecurityOptions } from '@rekog/mcp-nest';
import type { Request } from 'express';
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
import { MCP_ROUTES, PROTECTED_RESOURCE_PATH } from './mcp-paths';
import { CatalogMcpStrategy, ClientRequestBridge, createMcpEndpointParts } from './mcp-nest.extension';
import { externalBaseUrl } from './protected-resource';
import { SERVER_INSTRUCTIONS } from './server-instructions';

export const MCP_SERVER_NAME = 'agent-retrieval';

/** One MCP endpoint: its transport, the strategy serving it, and the HTTP controller that owns the route. */
export interface McpEndpoint {
  strategy: CatalogMcpStrategy;
  controller: Type<unknown>;
  clientRequests: ClientRequestBridge;
}

/**
 * Built per application (not at import time) so every app instance — several per test process — gets
 * its own transport, strategy and controller class, and the DNS-rebinding allowlist can follow config.
 */
export function createMcpEndpoint(config: AppConfig): McpEndpoint {
  const { strategy, controller, clientRequests } = createMcpEndpointParts(
    { name: MCP_SERVER_NAME, version: packageVersion(), instructions: SERVER_INSTRUCTIONS['en-US'] },
    transportSecurity(config),
  );
  // The route is a real Nest route, so the global AuthGuard (401 + challenge), throttling, the body
  // check and the host check run before the transport sees the request.
  Controller(MCP_ROUTES)(controller);
  Access('public')(controller);
  ChallengeWithResourceMetadata((request) => resourceMetadataUrl(request, config))(controller);
  CheckBodyWith(checkJsonRpcBody)(controller);
  ErrorShape(JSON_RPC_ERROR_SHAPE)(controller);
  ApiExcludeController()(controller);
  return { strategy, controller, clientRequests };
}

type SecurityScheme = Record<string, unknown>;

/** What the endpoint really requires of a caller, in `_meta.securitySchemes` terms. */
export function securitySchemesFor(config: AppConfig): SecurityScheme[] {
  if (config.auth.mode === 'none') return [{ type: 'noauth' }];
  if (config.auth.mode === 'introspect') return [{ type: 'oauth2' }];
  return [{ type: 'http', scheme: 'bearer' }];
}

/**
 * Where a 401 on the endpoint says its RFC 9728 metadata lives: only under AUTH_MODE=introspect, the one
 * mode that serves the document (a pointer to a 404 helps nobody).
 */
function resourceMetadataUrl(request: Request, config: AppConfig): string | undefined {
  if (config.auth.mode !== 'introspect') return undefined;
  return `${externalBaseUrl(request, config.mcp.publicBaseUrl)}${PROTECTED_RESOURCE_PATH}`;
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

export function packageVersion(): string {
  if (cachedVersion) return cachedVersion;
  try {
    const manifest = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version?: string };
    cachedVersion = manifest.version ?? '0.0.0';
  } catch {
    cachedVersion = '0.0.0';
  }
  return cachedVersion;
}
