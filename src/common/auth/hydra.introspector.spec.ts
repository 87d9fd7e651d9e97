import { Logger } from '@nestjs/common';
import { HydraIntrospector } from './hydra.introspector';
import { INACTIVE } from './token-introspector.port';

/** An introspection endpoint that answers every token with `answer` (RFC 7662 JSON). */
function answering(answer: unknown): jest.SpyInstance {
  return jest.spyOn(global, 'fetch').mockImplementation(async () => Response.json(answer));
}

describe('HydraIntrospector names an account only from a usable sub', () => {
  const introspector = new HydraIntrospector({
    introspectUrl: 'http://hydra.test/introspect',
    introspectTimeoutMs: 1000,
  });
  let warnings: string[];

  beforeEach(() => {
    warnings = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });
  });

  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['an empty sub', { sub: '' }, 'an empty sub'],
    ['a blank sub', { sub: '  ' }, 'an empty sub'],
    ['no sub', {}, 'no sub'],
    ['an array sub', { sub: ['acctA'] }, 'a non-string (array) sub'],
    ['a numeric sub', { sub: 42 }, 'a non-string (number) sub'],
    ['an empty client_id', { sub: 'u-1', client_id: '' }, 'an empty client_id'],
    ['an object client_id', { sub: 'u-1', client_id: { id: 'x' } }, 'a non-string (object) client_id'],
  ])('refuses an active answer with %s as inactive, logging which field', async (_case, fields, logged) => {
    answering({ active: true, ...fields });
    await expect(introspector.introspect('token-value')).resolves.toEqual(INACTIVE);
    expect(warnings).toEqual([`introspection answered an active token with ${logged}; refused (401)`]);
  });

  it('keeps accepting a string sub, with or without client_id', async () => {
    answering({ active: true, sub: 'svc-1', client_id: 'svc-1' });
    await expect(introspector.introspect('t')).resolves.toMatchObject({ accountId: 'svc-1', accountType: 'app' });
    answering({ active: true, sub: 'u-1', client_id: null, ext: { visitor_type: 'realname' } });
    await expect(introspector.introspect('t')).resolves.toMatchObject({ accountId: 'u-1', accountType: 'user' });
    expect(warnings).toEqual([]);
  });
});
