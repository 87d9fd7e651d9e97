import type { Request } from 'express';
import {
  externalBaseUrl,
  MCP_AUTH_SETTINGS,
  protectedResourceMetadata,
  resourceMetadataUrlFor,
} from './protected-resource';
import { testConfig } from '../../test/support/unit/config';

function request(path: string, settings?: object, host = '127.0.0.1:30779'): Request {
  return {
    path,
    protocol: 'http',
    get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined),
    app: { locals: settings ? { [MCP_AUTH_SETTINGS]: settings } : {} },
  } as unknown as Request;
}

const MCP = '/api/agent-retrieval/v1/mcp';

describe('protected resource metadata', () => {
  it('names the MCP URL from PUBLIC_BASE_URL, else from the request host', () => {
    expect(externalBaseUrl(request(MCP), 'https://agent.example.com')).toBe('https://agent.example.com');
    expect(externalBaseUrl(request(MCP, undefined, 'svc:8080'), undefined)).toBe('http://svc:8080');
    const introspection = { AUTH_MODE: 'introspect', INTROSPECT_URL: 'http://hydra:4445/admin/oauth2/introspect' };
    const { auth, mcp } = testConfig({ ...introspection, AUTH_ISSUER_URL: 'https://auth.example.com' });
    expect(protectedResourceMetadata(request(MCP), auth, mcp)).toEqual({
      resource: `http://127.0.0.1:30779${MCP}`,
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      resource_name: 'Agent Retrieval MCP server',
    });
    const withoutIssuer = protectedResourceMetadata(request(MCP), testConfig(introspection).auth, mcp);
    expect(withoutIssuer.authorization_servers).toBeUndefined();
  });

  it('points the 401 challenge at the metadata only under introspection (the guard asks only on the MCP route)', () => {
    const introspect = { mode: 'introspect' };
    expect(resourceMetadataUrlFor(request(MCP, introspect))).toBe(
      `http://127.0.0.1:30779/.well-known/oauth-protected-resource${MCP}`,
    );
    expect(resourceMetadataUrlFor(request(MCP, { mode: 'static' }))).toBeUndefined();
    expect(resourceMetadataUrlFor(request(MCP))).toBeUndefined();
  });
});
