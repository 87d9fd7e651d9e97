import { Controller, ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppException } from '../errors/app.exception';
import { OpenController, PrivateController, PublicController } from '../http/route-prefixes';
import { AuthenticatedRequest, AuthGuard } from './auth.guard';
import { INACTIVE, TokenIntrospector } from './token-introspector.port';
import { testConfig } from '../../../test/support/unit/config';
import { mockPort } from '../../../test/support/unit/mocks';

@Controller('somewhere')
class Undeclared {
  handle(): void {}
}

@PublicController('kn')
class PublicRoutes {
  handle(): void {}
}

@PrivateController('kn')
class PrivateRoutes {
  handle(): void {}
}

@OpenController('health')
class OpenRoutes {
  handle(): void {}
}

function contextFor(
  controller: { prototype: { handle: () => void } },
  request: Partial<AuthenticatedRequest>,
): ExecutionContext {
  request.headers ??= {};
  return {
    getType: () => 'http',
    getClass: () => controller,
    getHandler: () => controller.prototype.handle,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

describe('AuthGuard decides by the matched route', () => {
  const introspector = mockPort(TokenIntrospector, { introspect: async () => INACTIVE });
  const guard = new AuthGuard(
    testConfig({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 't=a:user' }).auth,
    introspector,
    new Reflector(),
  );

  beforeAll(() => Logger.overrideLogger(false));

  it('refuses a route that declares no access class, whatever its URL looks like (fail closed)', async () => {
    const failure = await guard
      .canActivate(contextFor(Undeclared, { path: '/health/live' }))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppException);
    expect((failure as AppException).definition.code).toBe('agentRetrieval.Forbidden.RouteAccessUndeclared');
    expect((failure as AppException).status).toBe(403);
  });

  it('asks for a token on a public route even when the URL says otherwise', async () => {
    const failure = await guard
      .canActivate(contextFor(PublicRoutes, { path: '/API/whatever' }))
      .catch((error: unknown) => error);
    expect((failure as AppException).definition.code).toBe('agentRetrieval.Unauthorized.TokenMissing');
  });

  it('takes the account from headers on a private route and lets open routes pass', async () => {
    const request: Partial<AuthenticatedRequest> = { headers: { 'x-account-id': 'svc', 'x-account-type': 'app' } };
    await expect(guard.canActivate(contextFor(PrivateRoutes, request))).resolves.toBe(true);
    expect(request.account).toEqual({ id: 'svc', type: 'app' });
    await expect(guard.canActivate(contextFor(OpenRoutes, {}))).resolves.toBe(true);
    expect(introspector.introspect).not.toHaveBeenCalled();
  });
});
