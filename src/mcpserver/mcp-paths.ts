import { PUBLIC_PREFIX } from '../common/http/route-prefixes';

/** The MCP Streamable HTTP endpoint (SPEC §7); every sub-path reaches the same handler, as upstream. */
export const MCP_PATH = `${PUBLIC_PREFIX}/mcp`;
export const MCP_ROUTES = [MCP_PATH, `${MCP_PATH}/*path`];

/** RFC 9728 metadata: the path-inserted form for the MCP resource, and the root form. */
export const PROTECTED_RESOURCE_ROOT = '/.well-known/oauth-protected-resource';
export const PROTECTED_RESOURCE_PATH = `${PROTECTED_RESOURCE_ROOT}${MCP_PATH}`;

/** Injection token: what the endpoint requires of a caller, as tools/list's `_meta.securitySchemes` says. */
export const MCP_SECURITY_SCHEMES = 'agentRetrieval:mcpSecuritySchemes';
