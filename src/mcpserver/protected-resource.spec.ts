import type { Request } from 'express';
import { externalBaseUrl, protectedResourceMetadata } from './protected-resource';
import { testConfig } from '../../test/support/unit/config';

function request(path: string, host = '127.0.0.1:30779', protocol = 'http'): Request {
  return {
    path,
    protocol,
    get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined),
  } as unknown as Request;
}

const MCP = '/api/agent-retrieval/v1/mcp';
const INTROSPECTION = { AUTH_MODE: 'introspect', INTROSPECT_URL: 'http://hydra:4445/admin/oauth2/introspect' };

describe('externalBaseUrl', () => {
  it('is PUBLIC_BASE_URL when configured, else what the caller used to reach us', () => {
    expect(externalBaseUrl(request(MCP), 'https://agent.example.com')).toBe('https://agent.example.com');
    expect(externalBaseUrl(request(MCP, 'svc:8080'), undefined)).toBe('http://svc:8080');
    expect(externalBaseUrl(request(MCP, 'agent.example.com', 'https'), undefined)).toBe('https://agent.example.com');
  });

  it('falls back to localhost when the request names no host', () => {
    const hostless = { path: MCP, protocol: 'http', get: () => undefined } as unknown as Request;
    expect(externalBaseUrl(hostless, undefined)).toBe('http://localhost');
  });
});

describe('protectedResourceMetadata', () => {
  it('names the MCP URL and the issuer as its authorization server', () => {
    const { auth, mcp } = testConfig({ ...INTROSPECTION, AUTH_ISSUER_URL: 'https://auth.example.com' });
    expect(protectedResourceMetadata(request(MCP), auth, mcp)).toEqual({
      resource: `http://127.0.0.1:30779${MCP}`,
      authorization_servers: ['https://auth.example.com'],
      bearer_methods_supported: ['header'],
      resource_name: 'Agent Retrieval MCP server',
    });
  });

  it('leaves out authorization_servers without an issuer', () => {
    const { auth, mcp } = testConfig(INTROSPECTION);
    const metadata = protectedResourceMetadata(request(MCP), auth, mcp);
    expect(metadata).not.toHaveProperty('authorization_servers');
    expect(metadata.resource).toBe(`http://127.0.0.1:30779${MCP}`);
  });

  it('names the resource under PUBLIC_BASE_URL when configured', () => {
    const { auth, mcp } = testConfig({ ...INTROSPECTION, PUBLIC_BASE_URL: 'https://agent.example.com/' });
    expect(protectedResourceMetadata(request(MCP, 'internal:30779'), auth, mcp).resource).toBe(
      `https://agent.example.com${MCP}`,
    );
  });
});
