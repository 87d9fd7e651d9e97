import { Controller, ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { AppException } from '../errors/app.exception';
import { declaredErrorShape, ErrorShape } from '../errors/error-shape';
import { tagRequests } from '../http/listeners';
import { OpenController, PrivateController, PublicController } from '../http/route-prefixes';
import { AuthenticatedRequest, AuthGuard } from './auth.guard';
import { AccountThrottlerGuard } from '../http/account-throttler.guard';
import { AuthorityAdmission, INACTIVE, TokenInfo, TokenIntrospector } from './token-introspector.port';
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

@PublicController('chat')
@ErrorShape('openai')
class ShapedRoutes {
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

/** A stand-in for the rate limiter: counts the anonymous hits, and refuses everything once spent. */
function anonymousLimit() {
  const limit = { hits: 0, spent: false };
  const throttler = {
    limitAnonymous: async () => {
      limit.hits += 1;
      if (limit.spent) throw new Error('429');
    },
    admitAnonymous: async () => {
      if (limit.spent) throw new Error('429');
    },
  } as unknown as AccountThrottlerGuard;
  return { limit, throttler };
}

const STATIC_AUTH = testConfig({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 't=a:user' }).auth;
const ONE_LISTENER = testConfig().server;
const TWO_LISTENERS = testConfig({ PRIVATE_PORT: '0' }).server;

describe('AuthGuard decides by the matched route', () => {
  const introspector = mockPort(TokenIntrospector, { introspect: async () => INACTIVE });
  const guard = new AuthGuard(STATIC_AUTH, introspector, new Reflector(), anonymousLimit().throttler, ONE_LISTENER);

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

  it('refuses a private route whose caller names no account (x-account-id missing or blank)', async () => {
    for (const headers of [{}, { 'x-account-id': '  ', 'x-account-type': 'app' }, { 'x-account-type': 'user' }]) {
      const failure = await guard
        .canActivate(contextFor(PrivateRoutes, { headers, method: 'POST', path: '/x' }))
        .catch((error: unknown) => error);
      expect((failure as AppException).definition.code).toBe('agentRetrieval.Unauthorized.AccountMissing');
      expect((failure as AppException).status).toBe(401);
    }
  });

  it('records the error shape the matched controller declares, even on a request it refuses', async () => {
    const shaped: Partial<AuthenticatedRequest> = {};
    await guard.canActivate(contextFor(ShapedRoutes, shaped)).catch(() => undefined);
    expect(declaredErrorShape(shaped)).toBe('openai');
    const plain: Partial<AuthenticatedRequest> = {};
    await guard.canActivate(contextFor(PublicRoutes, plain)).catch(() => undefined);
    expect(declaredErrorShape(plain)).toBeUndefined();
  });
});

describe('AuthGuard with a private listener of its own (PRIVATE_PORT)', () => {
  const introspector = mockPort(TokenIntrospector, { introspect: async () => INACTIVE });
  const guard = new AuthGuard(STATIC_AUTH, introspector, new Reflector(), anonymousLimit().throttler, TWO_LISTENERS);
  const account = { 'x-account-id': 'svc', 'x-account-type': 'app' };
  const onPrivateListener = (request: Partial<AuthenticatedRequest>): Partial<AuthenticatedRequest> => {
    const server = new EventEmitter() as unknown as Server;
    tagRequests(server, 'private');
    server.emit('request', request);
    return request;
  };
  const outcome = (controller: { prototype: { handle: () => void } }, request: Partial<AuthenticatedRequest>) =>
    guard.canActivate(contextFor(controller, { method: 'GET', path: '/p', ...request })).then(
      () => 200,
      (error: AppException) => error.status,
    );

  it('answers a private route reached through the public listener with 404, as if it did not exist', async () => {
    expect(await outcome(PrivateRoutes, { headers: account })).toBe(404);
    expect(await outcome(PrivateRoutes, onPrivateListener({ headers: account }))).toBe(200);
  });

  it('serves public routes only on the public listener and probes on both', async () => {
    expect(await outcome(PublicRoutes, onPrivateListener({}))).toBe(404);
    expect(await outcome(PublicRoutes, {})).toBe(401);
    expect(await outcome(OpenRoutes, {})).toBe(200);
    expect(await outcome(OpenRoutes, onPrivateListener({}))).toBe(200);
  });
});

describe('AuthGuard counts the callers it refuses in their IP bucket', () => {
  const user: TokenInfo = { active: true, accountId: 'u', accountType: 'user' };
  /** Answers `known` tokens from its "cache"; any other is looked up at the "authority", admission first. */
  function authority(known: Record<string, TokenInfo>) {
    const asked: string[] = [];
    const introspector = mockPort(TokenIntrospector, {
      introspect: async (token: string, admit?: AuthorityAdmission) => {
        if (known[token]) return known[token];
        await admit?.();
        asked.push(token);
        return INACTIVE;
      },
    });
    return { introspector, asked };
  }
  const withToken = (token?: string) =>
    contextFor(PublicRoutes, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('counts a request without a token, or with a token the authority refuses, once each', async () => {
    const { limit, throttler } = anonymousLimit();
    const { introspector, asked } = authority({});
    const guard = new AuthGuard(STATIC_AUTH, introspector, new Reflector(), throttler, ONE_LISTENER);
    const missing = (await guard.canActivate(withToken()).catch((error: unknown) => error)) as AppException;
    const refused = (await guard.canActivate(withToken('made-up')).catch((error: unknown) => error)) as AppException;
    expect([missing.status, refused.status]).toEqual([401, 401]);
    expect([limit.hits, asked]).toEqual([2, ['made-up']]);
  });

  it('counts nothing for an accepted token', async () => {
    const { limit, throttler } = anonymousLimit();
    const guard = new AuthGuard(
      STATIC_AUTH,
      authority({ good: user }).introspector,
      new Reflector(),
      throttler,
      ONE_LISTENER,
    );
    await expect(guard.canActivate(withToken('good'))).resolves.toBe(true);
    expect(limit.hits).toBe(0);
  });

  it('asks the authority nothing once the bucket is spent, but still lets a known token through', async () => {
    const { limit, throttler } = anonymousLimit();
    const { introspector, asked } = authority({ good: user });
    const guard = new AuthGuard(STATIC_AUTH, introspector, new Reflector(), throttler, ONE_LISTENER);
    limit.spent = true;
    await expect(guard.canActivate(withToken('made-up'))).rejects.toThrow('429');
    expect(asked).toEqual([]);
    const context = withToken('good');
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(context.switchToHttp().getRequest<AuthenticatedRequest>().account).toEqual({ id: 'u', type: 'user' });
  });
});
