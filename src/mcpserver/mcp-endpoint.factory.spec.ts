import { createMcpEndpoint, transportSecurity } from './mcp-endpoint.factory';
import { testConfig } from '../../test/support/unit/config';

describe('transportSecurity', () => {
  it('pins Host and Origin to localhost names when serving unauthenticated on loopback', () => {
    expect(transportSecurity(testConfig({ HOST: '127.0.0.1' }))).toEqual({
      allowedHosts: 'localhost',
      allowedOrigins: 'localhost',
    });
  });

  it('uses MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS when given, and nothing otherwise', () => {
    const env = { HOST: '0.0.0.0', AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 't=u:user' };
    expect(transportSecurity(testConfig(env))).toBeUndefined();
    const listed = testConfig({
      ...env,
      MCP_ALLOWED_HOSTS: 'Agent.example.com, svc',
      MCP_ALLOWED_ORIGINS: 'app.example.com',
    });
    expect(transportSecurity(listed)).toEqual({
      allowedHosts: ['agent.example.com', 'svc'],
      allowedOrigins: ['app.example.com'],
    });
  });
});

describe('createMcpEndpoint', () => {
  it('gives every application its own transport, strategy and controller class', () => {
    const config = testConfig();
    const first = createMcpEndpoint(config);
    const second = createMcpEndpoint(config);
    expect(first.transport).not.toBe(second.transport);
    expect(first.controller).not.toBe(second.controller);
    expect(first.strategy.options.name).toBe('agent-retrieval');
    expect(Reflect.getMetadata('path', first.controller)).toEqual([
      '/api/agent-retrieval/v1/mcp',
      '/api/agent-retrieval/v1/mcp/*path',
    ]);
  });
});
