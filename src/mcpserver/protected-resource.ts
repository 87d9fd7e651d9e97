import type { Request } from 'express';
import { AuthConfig, McpConfig } from '../config';
import { MCP_PATH, PROTECTED_RESOURCE_PATH } from './mcp-paths';

/** RFC 9728 protected-resource metadata for the MCP endpoint. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  bearer_methods_supported: string[];
  resource_name: string;
}

/** What the challenge resolver needs, kept on the Express app so each app instance answers for itself. */
export interface McpAuthSettings {
  mode: AuthConfig['mode'];
  publicBaseUrl?: string;
}

export const MCP_AUTH_SETTINGS = 'agentRetrievalMcpAuth';

/** PUBLIC_BASE_URL when configured, else what the caller used to reach us (scheme honours trusted proxies). */
export function externalBaseUrl(request: Request, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl) return publicBaseUrl;
  return `${request.protocol}://${request.get('host') ?? 'localhost'}`;
}

export function protectedResourceMetadata(
  request: Request,
  auth: AuthConfig,
  mcp: McpConfig,
): ProtectedResourceMetadata {
  return {
    resource: `${externalBaseUrl(request, mcp.publicBaseUrl)}${MCP_PATH}`,
    ...(auth.issuerUrl ? { authorization_servers: [auth.issuerUrl] } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Agent Retrieval MCP server',
  };
}

/**
 * For `setResourceMetadataResolver`: the metadata URL for a 401 on the MCP endpoint (the guard asks only
 * there). Only under AUTH_MODE=introspect, the one mode that serves the document (a pointer to a 404
 * helps nobody).
 */
export function resourceMetadataUrlFor(request: Request): string | undefined {
  const settings = (request.app?.locals as Record<string, unknown> | undefined)?.[MCP_AUTH_SETTINGS] as
    McpAuthSettings | undefined;
  if (!settings || settings.mode !== 'introspect') return undefined;
  return `${externalBaseUrl(request, settings.publicBaseUrl)}${PROTECTED_RESOURCE_PATH}`;
}
