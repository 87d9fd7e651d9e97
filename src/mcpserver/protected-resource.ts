import type { Request } from 'express';
import { AuthConfig, McpConfig } from '../config';
import { MCP_PATH } from './mcp-paths';

/** RFC 9728 protected-resource metadata for the MCP endpoint. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  bearer_methods_supported: string[];
  resource_name: string;
}

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
