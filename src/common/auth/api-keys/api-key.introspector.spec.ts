import { ExecutionContext, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { attachRequestContext, RequestContext } from '../../context/request-context';
import { AppException } from '../../errors/app.exception';
import { AccountThrottlerGuard } from '../../http/account-throttler.guard';
import { PublicController } from '../../http/route-prefixes';
import { AuthenticatedRequest, AuthGuard } from '../auth.guard';
import { createIntrospector } from '../auth.module';
import { SharedRedis } from '../../redis/shared-redis';
import { INACTIVE, TokenIntrospector } from '../token-introspector.port';
import { ApiKeyIntrospector } from './api-key.introspector';
import { ApiKeyVerifier } from './api-key.verifier';
import { testConfig } from '../../../../test/support/unit/config';
import { mockPort } from '../../../../test/support/unit/mocks';

const KEY = `ar_0123456789abcdef_${'k'.repeat(43)}`;
const KEY_ANSWER = { active: true, accountId: 'agent-7', accountType: 'agent', keyId: '0123456789abcdef' };

function introspector() {
  const verify = jest.fn(async (token: string) => (token === KEY ? KEY_ANSWER : INACTIVE));
  const inner = mockPort(TokenIntrospector, {
    introspect: async (token) =>
      token === 'oauth' ? { active: true, accountId: 'u-1', accountType: 'user' } : INACTIVE,
  });
  const keys = { verify } as unknown as ApiKeyVerifier;
  return { verify, inner, introspector: new ApiKeyIntrospector(keys, inner) };
}

describe('ApiKeyIntrospector', () => {
  it('answers ar_ tokens from the key store and never shows them to the wrapped introspector', async () => {
    const { verify, inner, introspector: subject } = introspector();
    await expect(subject.introspect(KEY)).resolves.toEqual(KEY_ANSWER);
    await expect(subject.introspect('ar_not-a-key')).resolves.toEqual(INACTIVE);
    expect(verify).toHaveBeenCalledTimes(2);
    expect(inner.introspect).not.toHaveBeenCalled();
  });

  it('passes every other token, and the admission, to the wrapped introspector unchanged', async () => {
    const { verify, inner, introspector: subject } = introspector();
    const admit = jest.fn(async () => undefined);
    await expect(subject.introspect('oauth', admit)).resolves.toMatchObject({ accountId: 'u-1' });
    expect(inner.introspect).toHaveBeenCalledWith('oauth', admit);
    expect(verify).not.toHaveBeenCalled();
  });
});

@PublicController('kn')
class PublicRoutes {
  handle(): void {}
}

function contextFor(request: Partial<AuthenticatedRequest>): ExecutionContext {
  return {
    getType: () => 'http',
    getClass: () => PublicRoutes,
    getHandler: () => PublicRoutes.prototype.handle,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

describe('AuthGuard with API keys', () => {
  const auth = testConfig({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'oauth=u-1:user' }).auth;
  const hits = { anonymous: 0 };
  const throttler = {
    limitAnonymous: async () => {
      hits.anonymous += 1;
    },
    admitAnonymous: async () => undefined,
  } as unknown as AccountThrottlerGuard;
  const guard = new AuthGuard(auth, introspector().introspector, new Reflector(), throttler, testConfig().server);

  beforeAll(() => Logger.overrideLogger(false));

  it('puts the key id on the account and keeps the key out of the context upstreams read tokens from', async () => {
    const request: Partial<AuthenticatedRequest> = { headers: { authorization: `Bearer ${KEY}` } };
    const context: RequestContext = { requestId: 'r-1', language: 'en-US' };
    attachRequestContext(request, context);
    await guard.canActivate(contextFor(request));
    expect(request.account).toEqual({ id: 'agent-7', type: 'agent', keyId: '0123456789abcdef' });
    expect(context.account).toEqual(request.account);
    expect(context.token).toBeUndefined();
  });

  it('accepts the key from X-Authorization too', async () => {
    const request: Partial<AuthenticatedRequest> = { headers: { 'x-authorization': KEY } };
    await guard.canActivate(contextFor(request));
    expect(request.account?.keyId).toBe('0123456789abcdef');
  });

  it('refuses a bad key as it refuses a bad token: 401 TokenInactive, one hit in the anonymous bucket', async () => {
    const before = hits.anonymous;
    const request: Partial<AuthenticatedRequest> = { headers: { authorization: `Bearer ar_${'0'.repeat(16)}_nope` } };
    const failure = await guard.canActivate(contextFor(request)).catch((error: unknown) => error);
    expect((failure as AppException).definition.code).toBe('agentRetrieval.Unauthorized.TokenInactive');
    expect((failure as AppException).headers['WWW-Authenticate']).toContain('error="invalid_token"');
    expect(JSON.stringify((failure as AppException).details)).not.toContain('nope');
    expect(hits.anonymous).toBe(before + 1);
  });

  it('leaves OAuth tokens as they were: no key id, the token kept for upstreams that need it', async () => {
    const request: Partial<AuthenticatedRequest> = { headers: { authorization: 'Bearer oauth' } };
    const context: RequestContext = { requestId: 'r-2', language: 'en-US' };
    attachRequestContext(request, context);
    await guard.canActivate(contextFor(request));
    expect(request.account).toEqual({ id: 'u-1', type: 'user' });
    expect(context.token).toBe('oauth');
  });
});

describe('createIntrospector', () => {
  const keys = { verify: jest.fn() } as unknown as ApiKeyVerifier;
  const redis = new SharedRedis(undefined);

  it.each([
    [{ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 't=a:user' }, true],
    [{ AUTH_MODE: 'introspect', INTROSPECT_URL: 'http://127.0.0.1:1/introspect' }, true],
    [{ AUTH_MODE: 'none' }, false],
  ])('with %j accepts API keys: %s', (env, accepted) => {
    const introspector = createIntrospector(testConfig(env).auth, redis, keys);
    expect(introspector instanceof ApiKeyIntrospector).toBe(accepted);
  });
});
