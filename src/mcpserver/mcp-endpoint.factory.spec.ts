import { ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthGuard } from '../common/auth/auth.guard';
import { INACTIVE, TokenIntrospector } from '../common/auth/token-introspector.port';
import { AppException } from '../common/errors/app.exception';
import { AccountThrottlerGuard } from '../common/http/account-throttler.guard';
import { ROUTE_ACCESS } from '../common/http/route-access';
import { createMcpEndpoint, MCP_SERVER_NAME, securitySchemesFor, transportSecurity } from './mcp-endpoint.factory';
import { MCP_PATH } from './mcp-paths';
import { testConfig } from '../../test/support/unit/config';
import { mockPort } from '../../test/support/unit/mocks';

const INTROSPECTION = { AUTH_MODE: 'introspect', INTROSPECT_URL: 'http://hydra:4445/admin/oauth2/introspect' };
const STATIC = { AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 't=u:user' };

describe('transportSecurity', () => {
  it('pins Host and Origin to localhost names when serving unauthenticated on loopback', () => {
    expect(transportSecurity(testConfig({ HOST: '127.0.0.1' }))).toEqual({
      allowedHosts: 'localhost',
      allowedOrigins: 'localhost',
    });
  });

  it('uses MCP_ALLOWED_HOSTS / MCP_ALLOWED_ORIGINS when given, and nothing otherwise', () => {
    const env = { HOST: '0.0.0.0', PRIVATE_PORT: '30780', ...STATIC };
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

describe('securitySchemesFor', () => {
  it('says what the endpoint really requires of a caller in each AUTH_MODE', () => {
    expect(securitySchemesFor(testConfig({ AUTH_MODE: 'none' }))).toEqual([{ type: 'noauth' }]);
    expect(securitySchemesFor(testConfig(INTROSPECTION))).toEqual([{ type: 'oauth2' }]);
    expect(securitySchemesFor(testConfig(STATIC))).toEqual([{ type: 'http', scheme: 'bearer' }]);
  });
});

describe('createMcpEndpoint', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('gives every application its own strategy and controller class, on the public MCP routes', () => {
    const config = testConfig();
    const first = createMcpEndpoint(config);
    const second = createMcpEndpoint(config);
    expect(first.strategy).not.toBe(second.strategy);
    expect(first.controller).not.toBe(second.controller);
    expect(first.strategy.options.name).toBe(MCP_SERVER_NAME);
    expect(MCP_SERVER_NAME).toBe('agent-retrieval');
    expect(Reflect.getMetadata('path', first.controller)).toEqual([
      '/api/agent-retrieval/v1/mcp',
      '/api/agent-retrieval/v1/mcp/*path',
    ]);
    expect(Reflect.getMetadata(ROUTE_ACCESS, first.controller)).toBe('public');
  });

  describe('the 401 on the endpoint', () => {
    /** The WWW-Authenticate header the global guard answers a token-less request on the endpoint with. */
    async function challenge(env: Record<string, string>, host = '127.0.0.1:30779'): Promise<string> {
      const config = testConfig(env);
      const { controller } = createMcpEndpoint(config);
      const throttler = { limitAnonymous: async () => undefined } as unknown as AccountThrottlerGuard;
      const introspector = mockPort(TokenIntrospector, { introspect: async () => INACTIVE });
      const guard = new AuthGuard(config.auth, introspector, new Reflector(), throttler, config.server);
      const request = {
        path: MCP_PATH,
        protocol: 'http',
        headers: {},
        get: (name: string) => (name.toLowerCase() === 'host' ? host : undefined),
      } as unknown as Request;
      const context = {
        getType: () => 'http',
        getClass: () => controller,
        getHandler: () => function handle() {},
        switchToHttp: () => ({ getRequest: () => request }),
      } as unknown as ExecutionContext;
      const failure = await guard.canActivate(context).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppException);
      expect((failure as AppException).status).toBe(401);
      return (failure as AppException).headers['WWW-Authenticate'];
    }

    it('points at the RFC 9728 metadata under introspection, from the request host', async () => {
      await expect(challenge(INTROSPECTION)).resolves.toBe(
        'Bearer realm="agent-retrieval", ' +
          `resource_metadata="http://127.0.0.1:30779/.well-known/oauth-protected-resource${MCP_PATH}"`,
      );
    });

    it('names PUBLIC_BASE_URL in the pointer when it is configured', async () => {
      await expect(challenge({ ...INTROSPECTION, PUBLIC_BASE_URL: 'https://agent.example.com/' })).resolves.toBe(
        'Bearer realm="agent-retrieval", ' +
          `resource_metadata="https://agent.example.com/.well-known/oauth-protected-resource${MCP_PATH}"`,
      );
    });

    it('points nowhere in static mode, which serves no metadata', async () => {
      await expect(challenge(STATIC)).resolves.toBe('Bearer realm="agent-retrieval"');
    });
  });
});
